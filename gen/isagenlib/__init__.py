"""isagen: XML instruction-set descriptions turned into C.

The pipeline, one module (or package) per stage:
    xmlload  read the file, check it against xml/isagen.rng (versions.py: pick a version)
    build    make model objects, link names of types and operands (model.py)
    check    check meaning and resolve every name of every expression (check/, resolve.py, refs.py)
    cgen     the C back-end: C fragments, laid out by gen/templates/*.mako
    diff     compare two resolved models (difftable.py, diffreport.py, diffcorpus.py)
"""
