"""Operations the `agency` command runs on an installation (backup and restore of the database
and the data folder); the server and the modules do not import it."""
