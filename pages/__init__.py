"""The app's page scripts: thin layout and widgets over `webapp` and `present`."""
