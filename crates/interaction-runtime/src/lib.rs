//! The script on published pages: hydrates server-rendered surfaces.
