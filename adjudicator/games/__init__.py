"""The games the service plays, one package each; the registry in ``core`` lists them."""
