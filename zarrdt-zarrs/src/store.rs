//! Stores by location: the same code on a directory and, with the `s3` feature, on S3 (or any
//! S3-compatible server) through zarrs' object-store adapter.

use std::sync::Arc;
use std::time::Duration;

use zarrs::filesystem::FilesystemStore;
use zarrs::storage::ReadableWritableListableStorage;

use crate::Error;

/// How requests to an object store are bounded. Directories ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    /// The longest one request may take before it fails (and is retried).
    pub request_timeout: Duration,
    /// The longest connecting may take.
    pub connect_timeout: Duration,
    /// How many times a failed request is retried.
    pub max_retries: usize,
    /// The longest a request and its retries may take together.
    pub retry_timeout: Duration,
}

impl Default for StoreOptions {
    /// 30 s per request, 5 s to connect, 3 retries within 60 s: a stopped server is an error
    /// within about two minutes, never a hang.
    fn default() -> Self {
        StoreOptions {
            request_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            max_retries: 3,
            retry_timeout: Duration::from_secs(60),
        }
    }
}

/// A store for `location`, and the path of the node in it:
///
/// * a directory path (or a `file://` URL): the directory is the store, the path `"/"`;
///   created when an array is written to it;
/// * `s3://bucket/prefix` (with the `s3` feature): the bucket is the store, the path
///   `"/prefix"`. Credentials, region and endpoint come from the environment
///   (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`,
///   `AWS_ENDPOINT_URL` for an S3-compatible server, `AWS_ALLOW_HTTP=true` for one without
///   TLS, `AWS_SKIP_SIGNATURE=true` for unsigned requests to a public bucket); where it has no
///   credentials or no region, from the profile `AWS_PROFILE` (else `default`) of the AWS
///   CLI's files (`~/.aws/credentials` and `~/.aws/config`, or `AWS_SHARED_CREDENTIALS_FILE`
///   and `AWS_CONFIG_FILE`), static keys only: a profile that gets its credentials through
///   SSO or a role (or `credential_process`, without keys) is an error saying how to give
///   them. With none of
///   these, the instance metadata service (EC2) is asked.
///
/// Any other URL (`https://…`, `gs://…`) is [`Error::Store`], not a directory of that name.
///
/// So the same code writes to a laptop's directory and to S3:
///
/// ```no_run
/// # use zarrdt::array::{ArrayOptions, open_store};
/// # let fill = 0u32;
/// let (store, path) = open_store("s3://my-bucket/runs/particles.zarr")?; // or "particles.zarr"
/// let array = ArrayOptions::new(vec![1000], vec![100]).create(store, &path, &fill)?;
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
pub fn open_store(location: &str) -> Result<(ReadableWritableListableStorage, String), Error> {
    open_store_with(location, &StoreOptions::default())
}

/// [`open_store`] with request limits for object stores.
pub fn open_store_with(
    location: &str,
    options: &StoreOptions,
) -> Result<(ReadableWritableListableStorage, String), Error> {
    if let Some(rest) = location.strip_prefix("s3://") {
        return s3_store(rest, options);
    }
    let _ = options;
    let path = location.strip_prefix("file://").unwrap_or(location);
    if let Some(scheme) = url_scheme(path) {
        return Err(Error::Store {
            location: location.to_owned(),
            reason: format!(
                "`{scheme}://` is not a store zarrdt opens: a directory (a path, or a file:// \
                 URL) or, with the `s3` feature, s3://bucket/prefix"
            ),
        });
    }
    let store = FilesystemStore::new(path).map_err(|error| Error::Store {
        location: location.to_owned(),
        reason: error.to_string(),
    })?;
    Ok((Arc::new(store), "/".to_owned()))
}

/// The scheme of `location` if it is a URL (`scheme://…`, the scheme a letter then letters,
/// digits, `+`, `-` or `.`): a location no directory store should take as a path.
fn url_scheme(location: &str) -> Option<&str> {
    let (scheme, _) = location.split_once("://")?;
    let mut characters = scheme.chars();
    let url = characters
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && characters.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    url.then_some(scheme)
}

#[cfg(not(feature = "s3"))]
fn s3_store(
    rest: &str,
    _options: &StoreOptions,
) -> Result<(ReadableWritableListableStorage, String), Error> {
    Err(Error::Store {
        location: format!("s3://{rest}"),
        reason: "S3 support is zarrdt's `s3` feature, which this build does not have".into(),
    })
}

#[cfg(feature = "s3")]
fn s3_store(
    rest: &str,
    options: &StoreOptions,
) -> Result<(ReadableWritableListableStorage, String), Error> {
    s3::store(rest, options)
}

#[cfg(feature = "s3")]
mod aws_profile;

#[cfg(feature = "s3")]
mod s3 {
    //! S3 through `object_store`, made synchronous for zarrs' sync API by one runtime.

    use std::future::Future;
    use std::sync::{Arc, OnceLock};

    use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
    use object_store::{ClientConfigKey, RetryConfig};
    use zarrs::storage::ReadableWritableListableStorage;
    use zarrs::storage::storage_adapter::async_to_sync::{
        AsyncToSyncBlockOn, AsyncToSyncStorageAdapter,
    };
    use zarrs_object_store::AsyncObjectStore;

    use super::StoreOptions;
    use crate::Error;

    /// The runtime S3 requests run on: one for the program, started on first use.
    fn runtime() -> Result<&'static tokio::runtime::Runtime, Error> {
        static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
        if let Some(runtime) = RUNTIME.get() {
            return Ok(runtime);
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("zarrdt-s3")
            .build()
            .map_err(|error| Error::Store {
                location: "s3://".into(),
                reason: format!("cannot start the I/O runtime: {error}"),
            })?;
        Ok(RUNTIME.get_or_init(|| runtime))
    }

    /// Runs zarrs' store calls on the runtime (from zarrs' own threads, which are not async).
    struct BlockOn(tokio::runtime::Handle);

    impl AsyncToSyncBlockOn for BlockOn {
        fn block_on<F: Future>(&self, future: F) -> F::Output {
            self.0.block_on(future)
        }
    }

    pub(super) fn store(
        rest: &str,
        options: &StoreOptions,
    ) -> Result<(ReadableWritableListableStorage, String), Error> {
        let location = format!("s3://{rest}");
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(Error::Store {
                location,
                reason: "no bucket: write s3://bucket/prefix".into(),
            });
        }
        let retry = RetryConfig {
            max_retries: options.max_retries,
            retry_timeout: options.retry_timeout,
            ..RetryConfig::default()
        };
        // The timeouts go in as configuration, on top of the client settings the environment
        // gives (`AWS_ALLOW_HTTP`, proxies…), which replacing the client options would drop.
        let millis = |duration: std::time::Duration| format!("{}ms", duration.as_millis());
        let env = |name: &str| std::env::var(name).ok();
        let s3 = super::aws_profile::apply(AmazonS3Builder::from_env(), &env, &location)?
            .with_bucket_name(bucket)
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
                millis(options.request_timeout),
            )
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
                millis(options.connect_timeout),
            )
            .with_retry(retry)
            .build()
            .map_err(|error| Error::Store {
                location: location.clone(),
                reason: error.to_string(),
            })?;
        let handle = runtime()?.handle().clone();
        let store =
            AsyncToSyncStorageAdapter::new(Arc::new(AsyncObjectStore::new(s3)), BlockOn(handle));
        let path = format!("/{}", prefix.trim_end_matches('/'));
        Ok((Arc::new(store), path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_are_stores_at_their_root() {
        let dir = std::env::temp_dir().join(format!("zarrdt-open-store-{}", std::process::id()));
        let (_, path) = open_store(dir.to_str().unwrap()).unwrap();
        assert_eq!(path, "/");
        let (_, path) = open_store(&format!("file://{}", dir.display())).unwrap();
        assert_eq!(path, "/");
    }

    #[cfg(not(feature = "s3"))]
    #[test]
    fn s3_needs_the_feature() {
        let error = open_store("s3://bucket/a.zarr").map(|_| ()).unwrap_err();
        assert!(error.to_string().contains("`s3` feature"), "{error}");
    }

    #[cfg(feature = "s3")]
    #[test]
    fn s3_urls_name_a_bucket() {
        let error = open_store("s3:///a.zarr").map(|_| ()).unwrap_err();
        assert!(error.to_string().contains("no bucket"), "{error}");
    }
}
