# SPDX-License-Identifier: GPL-2.0
# conf.py - Sphinx configuration for "make htmldocs": every page of
# Documentation/ built together, warnings being errors (make check).
project = "teeprobe"
copyright = "teeprobe authors; GPL-2.0"
master_doc = "index"
exclude_patterns = []
html_theme = "alabaster"
# Plain reStructuredText: no extensions, no roles beyond Sphinx's own.
extensions = []
