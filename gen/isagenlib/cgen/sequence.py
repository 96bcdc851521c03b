"""Sequences in C: decoding items one after the other, and an encoder that
computes the fields saying whether an item is there, how many there are
and how big the whole is.

The decoder reads presence and counts as it goes ($pos is the bits decoded
so far); each item's statements are a barrier block, so a <let> they use
is computed there, from what has been decoded.  The encoder works on a
copy `tmp` of the object.
"""

from .. import expr as X
from .. import refs as R
from . import cexpr as E
from .cexpr import Env
from .cwriter import Block, place_lets
from .names import c_string, count_member, has_member


class SequenceCode:
    def __init__(self, names, layout):
        self.names = names
        self.layout = layout

    def tmp_env(self, context=None):
        """Expressions over the encoder's copy of the object."""
        return Env(self.names, "tmp", False, context={} if context is None else context)

    # ---- decoding

    def decode_lines(self, seq):
        """Statements decoding every item, in order."""
        env = Env(self.names, context={})
        body = Block()
        for it in seq.items:
            b = body.sub(f"{{ /* item {it.name} */", barrier=True)
            self.item_decode(b, seq, it, env)
        place_lets(body, env)
        return body.render("   ")

    def item_decode(self, b, seq, it, env):
        t = it.type.target
        dec = self.names.fn(t, "decode")
        if it.count is not None:
            b.stmt("int64_t n = ", E.compile(it.count, env))
            b.line(f"if (n < 0 || n > {it.max})")
            b.line(f"   return isa_fail(err, ISA_ERR_LIMIT, {c_string(seq.name)}, {c_string(it.name)}, "
                   f"\"count outside 0..{it.max}\");")
            b.line(f"v->{count_member(it)} = (unsigned)n;")
            loop = b.sub(f"for (unsigned i = 0; i < v->{count_member(it)}; i++) {{")
            loop.line("size_t n_bits = 0;")
            loop.line(f"int r = {dec}(buf, len, pos, &v->{it.name}[i], &n_bits, err);")
            loop.line("if (r)")
            loop.line("   return r;")
            loop.line("pos += n_bits;")
            return
        if it.present is not None:
            b.stmt(f"v->{has_member(it)} = ", E.Infix("!=", E.compile(it.present, env), E.Atom("0")))
            one = b.sub(f"if (v->{has_member(it)}) {{")
        else:
            one = b.sub("{")
        one.line("size_t n_bits = 0;")
        one.line(f"int r = {dec}(buf, len, pos, &v->{it.name}, &n_bits, err);")
        one.line("if (r)")
        one.line("   return r;")
        one.line("pos += n_bits;")
        if it.present is not None:
            one.tail = None
            absent = b.sub("} else {")
            absent.line(f"memset(&v->{it.name}, 0, sizeof v->{it.name});")

    def size_lines(self, seq, target, env_kind):
        """`target = <declared size>;` over v (decoder) or tmp (encoder)."""
        from .layout import assign_lines
        env = Env(self.names, context={}) if env_kind == "v" else self.tmp_env()
        return assign_lines(f"{target} = ", seq.size, env)

    # ---- encoding

    def presence_setters(self, seq):
        """Statements making the fields that govern each item agree with
        tmp's has_/n_ members, where the condition can be inverted:
        present="F" (a 1-bit field), present="bit(F, n)", count="F"."""
        env = self.tmp_env()
        out = []
        for it in seq.items:
            if it.present is not None:
                node = it.present
                if isinstance(node, X.Path) and self.settable(node, width=1):
                    lv, _ = E.lvalue(node, env)
                    out.append(f"{lv} = tmp.{has_member(it)};")
                    continue
                if self.bit_presence(it):
                    lv, _ = E.lvalue(node.args[0], env)
                    n, ct = node.args[1].value, self.layout.ctype(node.args[0].ref.field)
                    out.append(f"{lv} = ({ct})(((uint64_t){lv} & ~(UINT64_C(1) << {n})) | "
                               f"((uint64_t)tmp.{has_member(it)} << {n}));")
                    continue
            if it.count is not None and isinstance(it.count, X.Path) and self.settable(it.count):
                lv, _ = E.lvalue(it.count, env)
                out.append(f"{lv} = ({self.layout.ctype(it.count.ref.field)})tmp.{count_member(it)};")
        return out

    @staticmethod
    def bit_presence(it):
        """Whether item it's presence is present="bit(F, n)" with F a field
        the encoder can set: it writes the bit from the item's has_ member."""
        node = it.present
        return isinstance(node, X.Call) and node.fn == "bit" and isinstance(node.args[1], X.Num) and \
            isinstance(node.args[0], X.Path) and SequenceCode.settable(node.args[0]) and \
            node.args[1].value < node.args[0].ref.field.width

    @staticmethod
    def settable(node, width=None):
        ref = node.ref
        return (isinstance(ref, R.FieldValue) and ref.prop is None and ref.field.stored and ref.access.settable
                and not ref.access.guarded and (width is None or ref.field.width == width))

    def padding_lines(self, seq, it):
        """An item marked padding gets as many elements as its count says."""
        env = self.tmp_env()
        b = Block("{")
        b.line(f"/* {it.name} is padding: as many elements as its count says, zeros")
        b.line(" * unless the caller gave them; dropping one must lose nothing */")
        b.stmt("int64_t want = ", E.compile(it.count, env))
        b.line(f"{self.names.sname(it.type.target)} zero;")
        b.line("memset(&zero, 0, sizeof zero);")
        b.line(f"if (want < 0 || want > {it.max})")
        b.line(f"   return isa_fail(err, ISA_ERR_LIMIT, {c_string(seq.name)}, {c_string(it.name)}, \"count exceeds max\");")
        b.line(f"for (unsigned i = (unsigned)want; i < tmp.{count_member(it)} && i < {it.max}; i++)")
        b.line(f"   if (memcmp(&tmp.{it.name}[i], &zero, sizeof zero) != 0)")
        b.line(f"      return isa_fail(err, ISA_ERR_INCONSISTENT, {c_string(seq.name)}, {c_string(it.name)},")
        b.line("                      \"non-zero padding where the layout leaves none\");")
        b.line(f"for (unsigned i = tmp.{count_member(it)}; i < (unsigned)want; i++)")
        b.line(f"   tmp.{it.name}[i] = zero;")
        b.line(f"tmp.{count_member(it)} = (unsigned)want;")
        place_lets(b, env)
        return b.render("")

    def presence_checked_early(self, seq):
        """Items whose presence or count the encoder can check before it
        encodes anything: their condition reads no field a <derive> of the
        sequence computes (a missing unit is then reported as such, not as
        the odd size it would give)."""
        derived = [field_key(d.target.ref.access) for d in seq.derives if d.target is not None]
        out = []
        for it in seq.items:
            node = it.present if it.present is not None else it.count
            if node is None:
                continue
            if not any(reads_key(k, d) for k in read_keys(node) for d in derived):
                out.append(it)
        return out

    def presence_check_lines(self, seq, it):
        """The item's presence or count agrees with the fields that say it."""
        env = self.tmp_env()
        b = Block()
        if it.present is not None:
            cond = E.Infix("!=", E.Infix("!=", E.compile(it.present, env), E.Atom("0")), E.Atom(f"tmp.{has_member(it)}"))
            what = "presence disagrees with the fields that signal it"
        elif it.count is not None:
            cond = E.Infix("!=", E.compile(it.count, env), E.Atom(f"(int64_t)tmp.{count_member(it)}"))
            what = "element count disagrees with the field that gives it"
        else:
            return []
        b.stmt("if ", cond, "")
        b.line(f"   return isa_fail(err, ISA_ERR_INCONSISTENT, {c_string(seq.name)}, {c_string(it.name)},")
        b.line(f"                   \"{what}\");")
        return wrap_lets(b, env)

    def derive_lines(self, seq, d):
        """The encoder computes a derived field from the encoded size."""
        env = self.tmp_env({"size": "(int64_t)(pos - start)"})
        f = d.target.ref.field
        lv, _ = E.lvalue(d.target, self.tmp_env())
        b = Block("{")
        b.stmt("int64_t dv = ", E.compile(d.value, env))
        b.line(f"if (dv < {f.min_value} || dv > {f.max_value})")
        b.line(f"   return isa_fail_range(err, {c_string(seq.name)}, {c_string(d.field)}, dv, {f.min_value}, {f.max_value});")
        b.line(f"{lv} = ({self.layout.ctype(f)})dv;")
        place_lets(b, env)
        return b.render("")

    def size_check_lines(self, seq):
        env = self.tmp_env()
        b = Block()
        b.stmt("if ", E.Infix("!=", E.compile(seq.size, env), E.Atom("(int64_t)(pos - start)")), "")
        b.line(f"   return isa_fail(err, ISA_ERR_SIZE, {c_string(seq.name)}, 0, \"declared size disagrees with the content\");")
        return wrap_lets(b, env)


def wrap_lets(b, env):
    place_lets(b, env)
    lines = b.render("")
    return ["{"] + ["   " + ln for ln in lines] + ["}"] if b.decls else lines


def field_key(access):
    """What a settable access names: its steps, constant indices included."""
    return tuple((type(s).__name__, getattr(s, "field", None) or getattr(s, "item", None)
                  or getattr(s, "variant", None) or getattr(s, "alt", None),
                  s.index.value if isinstance(s, R.Element) and s.constant else None)
                 for s in access.steps)


def reads_key(k, derived):
    """Whether a read of access key k can read the derived field `derived`
    (a dynamic index can read any element)."""
    if len(k) != len(derived):
        return False
    return all(a[0] == b[0] and a[1] is b[1] and (a[2] is None or a[2] == b[2]) for a, b in zip(k, derived))


def read_keys(node, seen=None):
    """Access keys of every field an expression reads, through its lets."""
    seen = set() if seen is None else seen
    out = []
    for n in X.walk(node):
        ref = getattr(n, "ref", None)
        if isinstance(ref, (R.FieldValue, R.AggValue)) and ref.access.root.kind == "self":
            out.append(field_key(ref.access))
        elif isinstance(ref, R.LetValue) and ref.let not in seen and ref.on is None:
            seen.add(ref.let)
            out += read_keys(ref.let.value, seen)
    return out
