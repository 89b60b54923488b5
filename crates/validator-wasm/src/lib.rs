//! The client-side surface validator, repair and RFC 6902 patch pipeline, fence checks and catalog prompt.
