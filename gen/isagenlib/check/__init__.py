"""Stage 3 of the pipeline: check what the spec means, and resolve it.

Every problem is reported as a file:line:col error (all of them, not just
the first), in four passes, each a module with one job:

  layout     bits inside their struct, overlaps, coverage, field types and
             values, names C cannot take, length rules
  patterns   the (mask, value) patterns that select each variant and
             alternative; overlaps and shadowing among them
  exprs      every expression and template in its scope: names bound to
             what they mean (resolve.py), types, lets, operands, the stream
  graphs     containment, printing cycles, which operands are used

What the passes compute is stored in the model's declared "resolved"
fields (model.py): after check, the model is the resolved model every
back-end walks, and no back-end resolves a name again.
"""

from ..resolve import Resolver
from .exprs import ExprChecker
from .graphs import containment, print_cycles, used_operands
from .layout import LayoutChecker
from .patterns import PatternLowering


def check_part(spec, diags, checkable):
    """The checks of a spec that had build errors, on the part of it that
    `checkable` accepts (the top-level elements no error points into and
    that name none that one does: their names resolve to what the file
    says).  The graph checks need the whole spec and wait."""
    import dataclasses
    part = dataclasses.replace(
        spec, types=[t for t in spec.types if checkable(t)], enums=[e for e in spec.enums if checkable(e)],
        operands=[o for o in spec.operands if checkable(o)],
        containers=[c for c in spec.containers if checkable(c)],
        stream=spec.stream if spec.stream is not None and checkable(spec.stream) else None)
    check_meaning(part, diags)


def check_meaning(spec, diags):
    """The passes that need no more than the names they read: layout,
    patterns, expressions."""
    LayoutChecker(spec, diags).run()
    PatternLowering(spec, diags).run()
    exprs = ExprChecker(spec, diags, None)
    exprs.resolver = Resolver(spec, exprs.report_let)
    exprs.run()


def check_spec(spec, diags):
    check_meaning(spec, diags)
    containment(spec, diags)
    used_operands(spec, diags, print_cycles(spec, diags))
