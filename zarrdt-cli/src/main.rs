//! `zarrdt`: look inside Zarr arrays of records without writing code, and get the Rust struct
//! that reads them (the tool is `zarrdt_cli`; this parses the command line and reports).

#![forbid(unsafe_code)]

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use zarrdt_cli::{Cli, one_line, run};

fn main() -> ExitCode {
    // A bug must still be one line and exit code 1, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        // A reader of damaged input that panics: caught, and reported as the input's error.
        if zarrdt_cli::panics_are_caught() {
            return;
        }
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!("zarrdt: internal error{location}: {}", one_line(&payload));
        std::process::exit(1);
    }));
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(zarrdt_cli::Failure::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.closed_output() => ExitCode::SUCCESS,
        Err(failure) => {
            // The output so far is complete up to the failure; the error says where.
            let _ = out.flush();
            eprintln!("zarrdt: {}", failure.message());
            ExitCode::FAILURE
        }
    }
}
