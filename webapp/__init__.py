"""The web app's machinery: the server, the engine as pages use it (services), session and
URL state, and the widgets several pages share. The page scripts themselves are thin and
live in `pages/`; `app.py` is the entry point that lays them out."""
