"""`cpbot verify`: a problem package checked as problemtools and BAPCtools check it."""
