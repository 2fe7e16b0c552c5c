//! The derive's output compiles, without warnings, in hostile settings a user crate may have:
//! strict lints with `unsafe` forbidden, user types named like the standard library's, and
//! modules without the implicit prelude. These compile as part of the suite (a failure is a
//! build error of this test binary); `tests/derive-ui/tests/ui` holds what must not compile.

mod colliding_names;
pub mod deny_warnings;
mod field_types;
mod no_implicit_prelude;
