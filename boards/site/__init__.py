"""The console as a static site: `make site` (build.py), and what the page's Worker runs."""
