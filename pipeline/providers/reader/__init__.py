"""The trained reader (docs/reader.md): one message in its context to a reading of acts.

Not wired into any provider yet. Imports only numpy, onnxruntime, tokenizers and
pipeline.errors / pipeline.local_settings (tests/reader/test_reader_runtime.py checks).
"""

from pipeline.providers.reader.decode import ReadAct, ReaderOutput, Span
from pipeline.providers.reader.encode import ReaderContext
from pipeline.providers.reader.model import Reader, read, reader

__all__ = ["ReadAct", "Reader", "ReaderContext", "ReaderOutput", "Span", "read", "reader"]
