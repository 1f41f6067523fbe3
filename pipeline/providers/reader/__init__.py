"""The trained reader (docs/reader.md): one message in its context to a reading of acts.

Reads for the local-reader provider (pipeline/providers/local_reader/). Imports only numpy,
onnxruntime, tokenizers and pipeline.errors / pipeline.local_settings
(tests/reader/test_reader_runtime.py checks).
"""

from pipeline.providers.reader.decode import ReadAct, ReaderOutput
from pipeline.providers.reader.encode import ReaderContext
from pipeline.providers.reader.model import Reader, read, reader
from pipeline.providers.reader.spans import Span

__all__ = ["ReadAct", "Reader", "ReaderContext", "ReaderOutput", "Span", "read", "reader"]
