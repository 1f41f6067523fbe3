"""The trained reader's corpus, generator and training (docs/reader.md).

Nothing here runs in the pipeline: `python -m training.build` writes the corpus under
training/data/, `python -m training.train` fits the reader and writes its weights to
pipeline/providers/reader/weights/. The runtime (pipeline/providers/reader/) imports none of it.
"""
