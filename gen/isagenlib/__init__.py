"""isagen: XML instruction-set descriptions turned into C.

The pipeline, one module per stage:
    xmlload  read the file, check it against xml/isagen.rng
    build    make model objects, resolve names           (model.py)
    check    check meaning: layouts, patterns, expressions
    codegen  prepare C fragments, render gen/templates/*.mako
"""
