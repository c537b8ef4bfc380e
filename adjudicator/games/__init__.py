"""The games the service plays, one package each; ``registry`` lists them for the layers above."""
