"""Knowledge artifacts: front matter, item types, land-time lint and graph derivation."""
