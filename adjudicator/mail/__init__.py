"""Mail in and out: reading raw messages, finding what the player wrote, seat addresses, MIME."""
