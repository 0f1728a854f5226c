"""`bench report`: results documents (results/README.md) drawn as one self-contained HTML page.

Modules: doc (reading and checking documents), style (colours, fonts, figure to inline SVG),
one module per kind of chart (sweeps, residency, ceilings, atomics, latency), tables (device
and run facts, sg-info, any other benchmark), compare (before/after verdicts), page (the HTML).
"""
