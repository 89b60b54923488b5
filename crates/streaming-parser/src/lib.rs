//! Reads model output chunk by chunk: healed markdown, surface fences with ghosts, placeholders, JSON Lines, A2UI.
