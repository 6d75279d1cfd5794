//! Python module kassen._kassen.
