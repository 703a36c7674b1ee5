"""The verification lab: labelled candidate programs (`dataset`) and what the gate lets through (`measure`)."""
