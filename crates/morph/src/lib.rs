//! Studio's preview morph: merges fresh HTML into the live preview, keeping the person's place.
