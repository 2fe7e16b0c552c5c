//! Reading numcodecs configurations: every key optional (zarr-python 3 writes only the
//! arguments a codec was given, `{}` for the defaults), unknown keys refused as numcodecs
//! refuses unknown arguments.

use serde_json::{Map, Value as Json};
use zarrs::metadata::v3::MetadataV3;
use zarrs::plugin::PluginCreateError;

/// The configuration of a v3 codec, empty if it has none.
pub(crate) fn of_v3(metadata: &MetadataV3) -> Map<String, Json> {
    metadata
        .configuration()
        .map(|configuration| (**configuration).clone())
        .unwrap_or_default()
}

/// An invalid configuration of `codec`.
pub(crate) fn invalid(codec: &str, why: impl std::fmt::Display) -> PluginCreateError {
    PluginCreateError::Other(format!("{codec}: invalid configuration: {why}"))
}

/// The keys of one codec's configuration, read once each.
pub(crate) struct Settings<'a> {
    codec: &'static str,
    configuration: &'a Map<String, Json>,
    read: Vec<&'static str>,
}

impl<'a> Settings<'a> {
    /// The configuration of `codec` (its numcodecs id), without the `id` of a v2 one.
    pub(crate) fn new(codec: &'static str, configuration: &'a Map<String, Json>) -> Self {
        Settings {
            codec,
            configuration,
            read: vec!["id"],
        }
    }

    /// The codec's numcodecs id.
    pub(crate) fn codec(&self) -> &'static str {
        self.codec
    }

    /// The value at `key`, unless absent or `null` (numcodecs' `None`).
    pub(crate) fn get(&mut self, key: &'static str) -> Option<&'a Json> {
        self.read.push(key);
        self.configuration.get(key).filter(|value| !value.is_null())
    }

    /// The integer at `key`, if present.
    pub(crate) fn integer(&mut self, key: &'static str) -> Result<Option<i64>, PluginCreateError> {
        match self.get(key) {
            None => Ok(None),
            Some(value) => value
                .as_i64()
                .map(Some)
                .ok_or_else(|| invalid(self.codec, format!("{key} is {value}, not an integer"))),
        }
    }

    /// Fails on a key that was not read.
    pub(crate) fn finish(self) -> Result<(), PluginCreateError> {
        match self
            .configuration
            .keys()
            .find(|key| !self.read.contains(&key.as_str()))
        {
            Some(key) => Err(invalid(
                self.codec,
                format!(
                    "unknown key {key:?} in {}",
                    Json::Object(self.configuration.clone())
                ),
            )),
            None => Ok(()),
        }
    }
}
