"""Files and folders, the one careful way: where the project's root is (``roots``), and writing a file
whole or not at all (``atomic``)."""
