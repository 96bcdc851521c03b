"""Diagnostics: every problem the generator reports carries file:line:col.

Errors are collected rather than raised one at a time, so that `isagen lint`
reports everything wrong with a file in one run.  Each stage of the pipeline
(load, build, check) ends with `Diagnostics.stop_if_errors()`.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    """A position in a source file; line and column are 1-based."""
    file: str
    line: int = 0
    col: int = 0

    def __str__(self):
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, chars):
        """The location `chars` characters further on the same line."""
        return Loc(self.file, self.line, self.col + chars)


@dataclass(frozen=True)
class Diagnostic:
    loc: Loc
    severity: str  # "error" or "warning"
    message: str

    def __str__(self):
        return f"{self.loc}: {self.severity}: {self.message}"


class SpecError(Exception):
    """Raised when a stage found errors; carries all of them."""

    def __init__(self, diagnostics):
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = list(diagnostics)


class Diagnostics:
    def __init__(self):
        self.items = []

    def error(self, loc, message):
        d = Diagnostic(Loc(loc.file, loc.line, loc.col), "error", message)
        if d not in self.items:
            self.items.append(d)

    def warning(self, loc, message):
        self.items.append(Diagnostic(loc, "warning", message))

    @property
    def errors(self):
        return [d for d in self.items if d.severity == "error"]

    def stop_if_errors(self):
        if self.errors:
            # Report in file order; a stable order keeps test expectations exact.
            ordered = sorted(self.items, key=lambda d: (d.loc.file, d.loc.line, d.loc.col))
            raise SpecError(ordered)
