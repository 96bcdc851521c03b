"""Checks over the spec as a graph.

* Containment: a struct may not contain itself (its size would be
  infinite), nor a sequence or choice.
* Printing: a display prints operands and nested structs, an operand's
  cases print other operands and struct parameters.  A cycle there would
  print forever (the generated printer would overflow its stack): it is an
  error, with the cycle in the message, at the call that closes it.
* Resolved here: which operands are used (Operand.used): reached from a
  type's displays, rules or <use>s.  An unused operand generates no code
  and is worth a warning.
"""

from .. import refs as R
from .. import template as T
from ..model import Choice, Sequence, Struct, held_types


def containment(spec, diags):
    def visit(t, stack):
        if t in stack:
            diags.error(t.loc, f"'{t.name}' contains itself: {' -> '.join(x.name for x in stack + [t])}")
            return
        for k in held_types(t):
            visit(k, stack + [t])
    for t in spec.types:
        visit(t, [])


def printed(parts, loc):
    """What a template prints besides text: [(operand or type, loc of the call)]."""
    out = []
    for node in T.walk_exprs(parts):
        ref = getattr(node, "ref", None)
        where = loc.shifted(node.pos)
        if isinstance(ref, R.OperandCall):
            out.append((ref.operand, where))
        elif isinstance(ref, R.UseValue) and ref.use.operand is not None:
            out.append((ref.use.operand, where))
        elif isinstance(ref, R.AggValue):
            out.append((ref.target, where))
    return out


def print_edges(spec):
    """{node: [(callee, loc)]} for types and operands, in document order."""
    edges = {}
    for t in spec.types:
        out = []
        holders = [t] + list(getattr(t, "variants", ()))
        for h in holders:
            for d in getattr(h, "displays", ()):
                out += printed(d.parts, d.text_loc)
            for r in getattr(h, "rules", ()):
                out += printed(r.message, r.message_loc)
            for m in getattr(h, "members", ()):
                if hasattr(m, "operand") and m.operand is not None:
                    out.append((m.operand, m.loc))
        if isinstance(t, Choice):
            out += [(a.type.target, a.loc) for a in t.alts if a.type.target is not None]
        edges[t] = out
    for o in spec.all_operands():
        out = []
        for c in o.cases:
            out += printed(c.display, c.display_loc)
            out += printed(c.message, c.message_loc)
        edges[o] = out
    return edges


def print_cycles(spec, diags):
    """Report each cycle of the print graph once, at the call that enters
    it from its first operand."""
    edges = print_edges(spec)
    reported = set()
    done = set()

    def visit(node, stack, calls):
        if node in done:
            return
        stack.append(node)
        for callee, where in edges.get(node, ()):
            if callee in stack:
                k = stack.index(callee)
                nodes, into = stack[k:], calls[k:] + [where]   # into[i]: the call from nodes[i] on
                key = frozenset(nodes)
                if key not in reported:
                    reported.add(key)
                    h = next(i for i, x in enumerate(nodes) if not isinstance(x, (Struct, Sequence, Choice)))
                    ring = nodes[h:] + nodes[:h]
                    chain = " -> ".join(x.name for x in ring + [ring[0]])
                    diags.error(into[h], f"operand '{ring[0].name}' calls itself: {chain}")
                continue
            calls.append(where)
            visit(callee, stack, calls)
            calls.pop()
        stack.pop()
        done.add(node)

    for o in spec.all_operands():
        visit(o, [], [])
    return edges


def used_operands(spec, diags, edges):
    """Mark the operands reachable from a type; warn about the others."""
    seen = set()
    todo = list(spec.types)
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for callee, _ in edges.get(node, ()):
            todo.append(callee)
    for o in spec.all_operands():
        o.used = o in seen
        if not o.used:
            diags.warning(o.loc, f"operand '{o.name}' is never used (no code is generated for it)")
