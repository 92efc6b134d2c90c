"""hetsparse's exceptions: the C++ types of include/hetsparse/error.hpp, with the same messages."""
import numpy as np


class Error(Exception):
    """Base of every hetsparse exception."""


class InvalidArgument(Error, ValueError):
    """A bad argument: sizes that do not match, an unknown option value, a closed Runtime, ..."""


class ParseError(Error, ValueError):
    """A malformed Matrix Market file; `file` and `line` say where."""

    def __init__(self, message, file=None, line=None):
        super().__init__(message)
        self.file, self.line = file, line


class StructureError(Error, ValueError):
    """A structural fault (missing diagonal, entry on the wrong side, asymmetry); 0-based `row`, `col`."""

    def __init__(self, message, row=None, col=None):
        super().__init__(message)
        self.row, self.col = row, col


class NotPositiveDefinite(Error, np.linalg.LinAlgError):
    """A non-positive pivot; `column` (0-based, the caller's numbering) names it."""

    def __init__(self, message, column=None):
        super().__init__(message)
        self.column = column


class RuntimeFailure(Error, RuntimeError):
    """StarPU, the CUDA runtime or a numerical library failed; the message names the call."""


class CudaError(RuntimeFailure):
    """A CUDA, cuBLAS, cuSPARSE or cuSOLVER call failed."""
