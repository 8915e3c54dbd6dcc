"""The console in a browser (`ttt serve`, docs/web.md): the host's side of the link for a
web page, which shows the front panel and each cartridge's view."""
