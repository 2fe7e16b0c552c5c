::core::compile_error! {
    "unknown `rename_all` rule; expected one of \"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\""
}
::core::compile_error! {
    "unknown zarr attribute `colour` on a field; expected `rename` or `skip`"
}
::core::compile_error! {
    "duplicate Zarr field name \"b\": field `a` already has this name"
}
