//! Credentials and region from the AWS CLI's shared files (`~/.aws/credentials` and
//! `~/.aws/config`, as `aws configure` writes them), for S3 stores: object_store reads the
//! environment and the instance metadata service, not these files.
//!
//! The order is the AWS tools' own: credentials and region in the environment win; then the
//! profile named by `AWS_PROFILE` (or `AWS_DEFAULT_PROFILE`, else `default`), its keys from the
//! credentials file before the config file. Static keys are all zarrdt takes from a profile; a
//! profile that gets its credentials another way (SSO or a role to assume, which the AWS tools
//! use before its keys, or `credential_process`, which they use where it has none) is an error
//! saying how to give them, never other credentials, nor a silent fall-through to the instance
//! metadata service.

use std::path::{Path, PathBuf};

use ini::Ini;
use object_store::aws::AmazonS3Builder;

use crate::Error;

/// A lookup of environment variables (the process's, or a test's own).
pub(super) type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The profile's keys that name a source of credentials zarrdt does not run: those the AWS
/// tools use before a profile's static keys, then `credential_process`, which they use only
/// where it has none.
const OTHER_SOURCES: [&str; 6] = [
    "role_arn",
    "web_identity_token_file",
    "sso_session",
    "sso_start_url",
    "login_session",
    CREDENTIAL_PROCESS,
];

/// The one source of [`OTHER_SOURCES`] that comes after a profile's static keys.
const CREDENTIAL_PROCESS: &str = "credential_process";

/// What one profile of the shared files says.
#[derive(Debug, Default, PartialEq, Eq)]
struct Profile {
    access_key_id: Option<String>,
    secret_access_key: Option<String>,
    session_token: Option<String>,
    region: Option<String>,
    /// The first key naming a source of credentials other than static keys, and its file.
    other_source: Option<(&'static str, PathBuf)>,
    /// The file the keys came from (for errors).
    keys_file: Option<PathBuf>,
}

/// `builder` (made from the environment) with what the shared files' profile adds: its keys
/// where the environment has no credentials, its region where it has none.
pub(super) fn apply(
    builder: AmazonS3Builder,
    env: Env,
    location: &str,
) -> Result<AmazonS3Builder, Error> {
    let set = |name: &str| env(name).is_some_and(|value| !value.is_empty());
    let credentials_in_env = set("AWS_ACCESS_KEY_ID")
        || env("AWS_SKIP_SIGNATURE").is_some_and(|value| value.eq_ignore_ascii_case("true"))
        || (set("AWS_WEB_IDENTITY_TOKEN_FILE") && set("AWS_ROLE_ARN"));
    let region_in_env = set("AWS_REGION") || set("AWS_DEFAULT_REGION");
    if credentials_in_env && region_in_env {
        return Ok(builder);
    }
    let error = |reason: String| Error::Store {
        location: location.to_owned(),
        reason,
    };
    let named = env("AWS_PROFILE")
        .filter(|name| !name.is_empty())
        .or_else(|| env("AWS_DEFAULT_PROFILE").filter(|name| !name.is_empty()));
    let name = named.as_deref().unwrap_or("default");
    let files = SharedFiles::from_env(env);
    let Some(profile) = files.profile(name).map_err(error)? else {
        return match &named {
            Some(name) => Err(error(format!(
                "the profile `{name}` (AWS_PROFILE) is in neither {} nor {}",
                shown(files.credentials.as_deref()),
                shown(files.config.as_deref()),
            ))),
            None => Ok(builder),
        };
    };
    let mut builder = builder;
    if !credentials_in_env {
        let other_source = |(key, file): (&str, PathBuf)| {
            error(format!(
                "the profile `{name}` in {} gets its credentials through `{key}`, which zarrdt \
                 does not run: give them in the environment, for example with `eval \"$(aws \
                 configure export-credentials --profile {name} --format env)\"`",
                file.display(),
            ))
        };
        // A role or SSO comes before the profile's keys for the AWS tools: never other keys.
        if let Some(source) = profile.other_source.clone()
            && source.0 != CREDENTIAL_PROCESS
        {
            return Err(other_source(source));
        }
        match (profile.access_key_id, profile.secret_access_key) {
            (Some(id), Some(secret)) => {
                builder = builder
                    .with_access_key_id(id)
                    .with_secret_access_key(secret);
                if let Some(token) = profile.session_token {
                    builder = builder.with_token(token);
                }
            }
            (Some(_), None) | (None, Some(_)) => {
                let file = profile.keys_file.as_deref().map(Path::display);
                return Err(error(format!(
                    "the profile `{name}` in {} has one of aws_access_key_id and \
                     aws_secret_access_key without the other",
                    file.map_or_else(|| "the shared files".to_owned(), |f| f.to_string()),
                )));
            }
            (None, None) => {
                if let Some(source) = profile.other_source {
                    return Err(other_source(source));
                }
            }
        }
    }
    if !region_in_env && let Some(region) = profile.region {
        builder = builder.with_region(region);
    }
    Ok(builder)
}

/// Where the two shared files are.
struct SharedFiles {
    credentials: Option<PathBuf>,
    config: Option<PathBuf>,
}

impl SharedFiles {
    /// `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE`, else `~/.aws/credentials` and
    /// `~/.aws/config` (none without a home directory).
    fn from_env(env: Env) -> Self {
        let home = env("HOME")
            .or_else(|| env("USERPROFILE"))
            .filter(|home| !home.is_empty())
            .map(|home| Path::new(&home).join(".aws"));
        let file = |variable: &str, name: &str| {
            env(variable)
                .filter(|path| !path.is_empty())
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|dir| dir.join(name)))
        };
        SharedFiles {
            credentials: file("AWS_SHARED_CREDENTIALS_FILE", "credentials"),
            config: file("AWS_CONFIG_FILE", "config"),
        }
    }

    /// The profile `name` from both files (the credentials file's keys first), or `None` if
    /// neither has it. A file that is missing has no profiles; one that cannot be read or
    /// parsed is an error naming it.
    fn profile(&self, name: &str) -> Result<Option<Profile>, String> {
        let mut profile = Profile::default();
        let mut found = false;
        // The credentials file's sections are the profile's name; the config file's are
        // `profile NAME`, or `default` for the default profile.
        let sources = [
            (self.credentials.as_deref(), false),
            (self.config.as_deref(), true),
        ];
        for (path, is_config) in sources {
            let Some(path) = path else { continue };
            let Some(ini) = load(path)? else { continue };
            for (section, properties) in ini.iter() {
                let Some(section) = section else { continue };
                let matches = if is_config {
                    section
                        .strip_prefix("profile")
                        .filter(|rest| rest.starts_with(char::is_whitespace))
                        .is_some_and(|rest| rest.trim() == name)
                        || (name == "default" && section == "default")
                } else {
                    section == name
                };
                if !matches {
                    continue;
                }
                found = true;
                let value = |key: &str| {
                    properties
                        .get(key)
                        .map(str::trim)
                        .filter(|value| !value.is_empty())
                        .map(str::to_owned)
                };
                let keys = [
                    (&mut profile.access_key_id, "aws_access_key_id"),
                    (&mut profile.secret_access_key, "aws_secret_access_key"),
                    (&mut profile.session_token, "aws_session_token"),
                    (&mut profile.region, "region"),
                ];
                for (slot, key) in keys {
                    if slot.is_none() {
                        *slot = value(key);
                    }
                }
                if profile.keys_file.is_none()
                    && (profile.access_key_id.is_some() || profile.secret_access_key.is_some())
                {
                    profile.keys_file = Some(path.to_owned());
                }
                if profile.session_token.is_none() {
                    profile.session_token = value("aws_security_token");
                }
                if profile.other_source.is_none() {
                    profile.other_source = OTHER_SOURCES
                        .into_iter()
                        .find(|key| value(key).is_some())
                        .map(|key| (key, path.to_owned()));
                }
            }
        }
        Ok(found.then_some(profile))
    }
}

/// A shared file's path for a message.
fn shown(file: Option<&Path>) -> String {
    file.map_or_else(
        || "(no home directory)".to_owned(),
        |path| path.display().to_string(),
    )
}

/// The file at `path` parsed, `None` if there is none.
fn load(path: &Path) -> Result<Option<Ini>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    Ini::load_from_str(&text)
        .map(Some)
        .map_err(|error| format!("cannot parse {}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use object_store::aws::AmazonS3ConfigKey;

    use super::*;

    /// A directory of its own with `credentials` and `config` files as given (`None`: absent).
    fn files(test: &str, credentials: Option<&str>, config: Option<&str>) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("zarrdt-aws-profile-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".aws")).unwrap();
        for (name, text) in [("credentials", credentials), ("config", config)] {
            if let Some(text) = text {
                std::fs::write(dir.join(".aws").join(name), text).unwrap();
            }
        }
        dir
    }

    /// The builder `apply` makes with the environment `vars` (and HOME at `home`), and what it
    /// says of the keys and region.
    fn apply_with(home: &Path, vars: &[(&str, &str)]) -> Result<[Option<String>; 4], Error> {
        let mut map: HashMap<String, String> = vars
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        map.insert("HOME".into(), home.display().to_string());
        let env = move |name: &str| map.get(name).cloned();
        let builder = apply(AmazonS3Builder::new(), &env, "s3://bucket/a.zarr")?;
        Ok([
            AmazonS3ConfigKey::AccessKeyId,
            AmazonS3ConfigKey::SecretAccessKey,
            AmazonS3ConfigKey::Token,
            AmazonS3ConfigKey::Region,
        ]
        .map(|key| builder.get_config_value(&key)))
    }

    fn some(values: [&str; 4]) -> [Option<String>; 4] {
        values.map(|value| (!value.is_empty()).then(|| value.to_owned()))
    }

    const CREDENTIALS: &str = "# aws configure\n[default]\naws_access_key_id = AKDEFAULT\n\
        aws_secret_access_key = secret-default\n\n[dev]\naws_access_key_id=AKDEV\n\
        aws_secret_access_key=secret-dev\naws_session_token=token-dev\n";
    const CONFIG: &str = "[default]\nregion = eu-west-1\n\n[profile dev]\nregion = ap-south-1\n\
        s3 =\n  addressing_style = path\n\n[profile sso]\nsso_session = my-sso\n\
        sso_account_id = 123\nregion = us-west-2\n";

    #[test]
    fn the_default_profile_gives_keys_and_region() {
        let home = files("default", Some(CREDENTIALS), Some(CONFIG));
        let got = apply_with(&home, &[]).unwrap();
        assert_eq!(got, some(["AKDEFAULT", "secret-default", "", "eu-west-1"]));
    }

    #[test]
    fn aws_profile_names_the_profile_of_both_files() {
        let home = files("named", Some(CREDENTIALS), Some(CONFIG));
        let got = apply_with(&home, &[("AWS_PROFILE", "dev")]).unwrap();
        assert_eq!(
            got,
            some(["AKDEV", "secret-dev", "token-dev", "ap-south-1"])
        );
        let got = apply_with(&home, &[("AWS_DEFAULT_PROFILE", "dev")]).unwrap();
        assert_eq!(got[0].as_deref(), Some("AKDEV"));
    }

    #[test]
    fn the_environment_wins_over_the_files() {
        let home = files("env", Some(CREDENTIALS), Some(CONFIG));
        let vars = [("AWS_ACCESS_KEY_ID", "AKENV"), ("AWS_REGION", "us-east-2")];
        // `apply` leaves the environment's keys to the builder made from it: none here.
        assert_eq!(apply_with(&home, &vars).unwrap(), some(["", "", "", ""]));
        // Keys in the environment, no region: the profile's region only.
        let got = apply_with(&home, &[("AWS_ACCESS_KEY_ID", "AKENV")]).unwrap();
        assert_eq!(got, some(["", "", "", "eu-west-1"]));
        // A region in the environment, no keys: the profile's keys only.
        let got = apply_with(&home, &[("AWS_DEFAULT_REGION", "us-east-2")]).unwrap();
        assert_eq!(got, some(["AKDEFAULT", "secret-default", "", ""]));
        // Unsigned requests need no keys.
        let got = apply_with(&home, &[("AWS_SKIP_SIGNATURE", "true")]).unwrap();
        assert_eq!(got, some(["", "", "", "eu-west-1"]));
    }

    #[test]
    fn keys_may_be_in_the_config_file_and_files_may_be_elsewhere() {
        let home = files("config-only", None, None);
        let config = home.join("elsewhere.ini");
        std::fs::write(
            &config,
            "[profile ci]\naws_access_key_id = AKCI\naws_secret_access_key = s\n",
        )
        .unwrap();
        let vars = [
            ("AWS_PROFILE", "ci"),
            ("AWS_CONFIG_FILE", config.to_str().unwrap()),
        ];
        assert_eq!(
            apply_with(&home, &vars).unwrap(),
            some(["AKCI", "s", "", ""])
        );
    }

    #[test]
    fn no_files_and_no_profile_named_change_nothing() {
        let home = files("none", None, None);
        assert_eq!(apply_with(&home, &[]).unwrap(), some(["", "", "", ""]));
        // A config file with another profile only.
        let home = files("other", None, Some("[profile other]\nregion = x\n"));
        assert_eq!(apply_with(&home, &[]).unwrap(), some(["", "", "", ""]));
    }

    #[test]
    fn what_cannot_be_used_is_an_error_saying_why() {
        let home = files("errors", Some(CREDENTIALS), Some(CONFIG));
        let message = |vars: &[(&str, &str)]| apply_with(&home, vars).unwrap_err().to_string();
        let missing = message(&[("AWS_PROFILE", "prod")]);
        assert!(
            missing.contains("the profile `prod` (AWS_PROFILE) is in neither")
                && missing.contains(".aws/credentials")
                && missing.contains(".aws/config")
                && missing.contains("s3://bucket/a.zarr"),
            "{missing}"
        );
        let sso = message(&[("AWS_PROFILE", "sso")]);
        assert!(
            sso.contains("gets its credentials through `sso_session`")
                && sso.contains("aws configure export-credentials --profile sso"),
            "{sso}"
        );
        // Keys beside a role: the AWS tools assume the role; zarrdt uses neither.
        let role = files(
            "role",
            Some(CREDENTIALS),
            Some("[default]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = dev\n"),
        );
        let error = apply_with(&role, &[]).unwrap_err().to_string();
        assert!(error.contains("through `role_arn`"), "{error}");
        // Keys beside a credential process: the keys, as the AWS tools take them first.
        let process = files(
            "process",
            Some(CREDENTIALS),
            Some("[default]\ncredential_process = /bin/false\n"),
        );
        assert_eq!(
            apply_with(&process, &[]).unwrap()[0].as_deref(),
            Some("AKDEFAULT")
        );
        let half = files("half", Some("[default]\naws_access_key_id = AK\n"), None);
        let error = apply_with(&half, &[]).unwrap_err().to_string();
        assert!(
            error.contains("has one of aws_access_key_id and aws_secret_access_key"),
            "{error}"
        );
        let broken = files("broken", Some("[default\naws_access_key_id = AK\n"), None);
        let error = apply_with(&broken, &[]).unwrap_err().to_string();
        assert!(
            error.contains("cannot parse") && error.contains("credentials"),
            "{error}"
        );
    }
}
