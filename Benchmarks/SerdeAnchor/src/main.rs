//! serde_json as a second anchor for ModelKit's JSON benchmarks (`modelkit-benchmarks json.serde`).
//!
//! The structs below have the fields and types of the `@Model` structs in
//! `Sources/ModelKitBenchmarks/JSON/SerdeCorpora.swift` (and, for `citm`, of the models generated for
//! citm_catalog.json). Dictionaries are `HashMap`s, as Swift's `Dictionary` is a hash table: neither
//! side keeps or sorts the document's key order, and a repeated key keeps its last value on both.
//!
//! It times itself the way the Swift harness's `Stopwatch` does: rounds of at least the given
//! seconds of repeated decodes (or encodes) of the bytes in memory, after one warm-up run.
//!
//!     serde-anchor check CORPUS FILE               the document decoded and encoded again, on stdout
//!     serde-anchor bench CORPUS FILE [ROUNDS] [S]   medians of ROUNDS rounds (7) of S seconds (0.2)
//!     serde-anchor serve CORPUS FILE S              one round per `decode` or `encode` line on stdin
//!
//! `serve` is what the benchmarks run: one process per document, so that its rounds alternate with
//! ModelKit's in the same line; each round answers `SECONDS-PER-RUN RUNS`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_derive::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::hint::black_box;
use std::io::{BufRead, Write};
use std::process::exit;
use std::time::Instant;

// MARK: floats: GeoJSON-like features with polygons.

#[derive(Serialize, Deserialize)]
struct GeoCollection {
    #[serde(rename = "type")]
    kind: String,
    features: Vec<GeoFeature>,
}

#[derive(Serialize, Deserialize)]
struct GeoFeature {
    #[serde(rename = "type")]
    kind: String,
    id: i64,
    properties: GeoProperties,
    bbox: Vec<f64>,
    geometry: GeoPolygon,
}

#[derive(Serialize, Deserialize)]
struct GeoProperties {
    name: String,
    area: f64,
    perimeter: f64,
    density: f64,
    scale: f64,
}

#[derive(Serialize, Deserialize)]
struct GeoPolygon {
    #[serde(rename = "type")]
    kind: String,
    coordinates: Vec<Vec<Vec<f64>>>,
}

// MARK: integers: ids of 9-19 digits, arrays of integers, objects of small integers.

#[derive(Serialize, Deserialize)]
struct Ledger {
    accounts: Vec<LedgerAccount>,
}

#[derive(Serialize, Deserialize)]
struct LedgerAccount {
    id: i64,
    external_id: u64,
    owner_id: i64,
    balance: i64,
    counters: LedgerCounters,
    history: Vec<i64>,
    linked_ids: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
struct LedgerCounters {
    opened: i64,
    closed: i64,
    failed: i64,
    retries: i64,
    depth: i64,
    weight: i64,
}

// MARK: dictionaries: a ticket catalogue keyed by numeric strings.

#[derive(Serialize, Deserialize)]
struct TicketCatalogue {
    area_names: HashMap<String, String>,
    seat_category_names: HashMap<String, String>,
    events: HashMap<String, TicketEvent>,
}

#[derive(Serialize, Deserialize)]
struct TicketEvent {
    id: i64,
    name: String,
    venue_code: String,
    start: i64,
    topic_ids: Vec<i64>,
    prices: HashMap<String, i64>,
}

// MARK: strings: non-ASCII text of every length.

#[derive(Serialize, Deserialize)]
struct TextCorpus {
    messages: Vec<TextMessage>,
}

#[derive(Serialize, Deserialize)]
struct TextMessage {
    id: i64,
    author: String,
    title: String,
    summary: String,
    body: String,
    tags: Vec<String>,
}

// MARK: citm: the public citm_catalog.json, with the types of its generated ModelKit models
// (their `JSONValue` properties are `Value`s, their optionals `Option`s).

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CitmCatalog {
    area_names: HashMap<String, String>,
    audience_sub_category_names: HashMap<String, String>,
    block_names: Value,
    events: HashMap<String, CitmEvent>,
    performances: Vec<CitmPerformance>,
    seat_category_names: HashMap<String, String>,
    sub_topic_names: HashMap<String, String>,
    subject_names: Value,
    topic_names: HashMap<String, String>,
    topic_sub_topics: HashMap<String, Vec<i64>>,
    venue_names: CitmVenueNames,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CitmEvent {
    description: Option<Value>,
    id: i64,
    logo: Option<String>,
    name: String,
    sub_topic_ids: Vec<i64>,
    subject_code: Option<Value>,
    subtitle: Option<Value>,
    topic_ids: Vec<i64>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CitmPerformance {
    event_id: i64,
    id: i64,
    logo: Option<String>,
    name: Option<Value>,
    prices: Vec<CitmPrice>,
    seat_categories: Vec<CitmSeatCategory>,
    seat_map_image: Option<Value>,
    start: i64,
    venue_code: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CitmPrice {
    amount: i64,
    audience_sub_category_id: i64,
    seat_category_id: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CitmSeatCategory {
    areas: Vec<CitmArea>,
    seat_category_id: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CitmArea {
    area_id: i64,
    block_ids: Vec<Value>,
}

#[derive(Serialize, Deserialize)]
struct CitmVenueNames {
    #[serde(rename = "PLEYEL_PLEYEL")]
    pleyel_pleyel: String,
}

// MARK: Timing

/// Seconds per run of one round: `body` repeated until at least `minimum` seconds have passed
/// (Stopwatch.round in Harness/Comparison.swift). Returns the runs too.
fn round(minimum: f64, mut body: impl FnMut()) -> (f64, u64) {
    let start = Instant::now();
    let mut runs = 0u64;
    loop {
        body();
        runs += 1;
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= minimum {
            return (elapsed / runs as f64, runs);
        }
    }
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> T {
    serde_json::from_slice(bytes).unwrap_or_else(|error| fail(&format!("does not decode: {error}")))
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_else(|error| fail(&format!("does not encode: {error}")))
}

fn fail(message: &str) -> ! {
    eprintln!("serde-anchor: {message}");
    exit(1)
}

/// One command on one corpus's document, with `T` the corpus's top-level struct.
fn run<T: Serialize + DeserializeOwned>(command: &str, bytes: &[u8], rest: &[String]) {
    let value: T = decode(bytes);
    let seconds = |index: usize, default: f64| -> f64 {
        rest.get(index).map_or(default, |text| text.parse().unwrap_or_else(|_| fail("bad number")))
    };
    let decode_round = |minimum: f64| round(minimum, || drop(black_box(decode::<T>(black_box(bytes)))));
    let encode_round = |minimum: f64| round(minimum, || drop(black_box(encode(black_box(&value)))));
    match command {
        "check" => {
            let mut out = std::io::stdout().lock();
            out.write_all(&encode(&value)).and_then(|_| out.flush()).unwrap_or_else(|_| fail("stdout"));
        }
        "bench" => {
            let rounds = seconds(0, 7.0) as usize;
            let minimum = seconds(1, 0.2);
            for (side, timed) in [("decode", &decode_round as &dyn Fn(f64) -> (f64, u64)), ("encode", &encode_round)] {
                timed(0.0); // warm up, as Stopwatch.compare does
                let mut times: Vec<f64> = (0..rounds.max(1)).map(|_| timed(minimum).0).collect();
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                println!("{side}: serde_json {:.1} MB/s (median of {} rounds)", bytes.len() as f64 / median / 1e6, times.len());
            }
        }
        "serve" => {
            let minimum = seconds(0, 0.2);
            let (mut decode_warm, mut encode_warm) = (false, false);
            let mut out = std::io::stdout().lock();
            for line in std::io::stdin().lock().lines() {
                let line = line.unwrap_or_else(|_| fail("stdin"));
                let (timed, warm) = match line.trim() {
                    "decode" => (&decode_round as &dyn Fn(f64) -> (f64, u64), &mut decode_warm),
                    "encode" => (&encode_round as &dyn Fn(f64) -> (f64, u64), &mut encode_warm),
                    other => fail(&format!("unknown command {other:?}")),
                };
                if !*warm {
                    timed(0.0);
                    *warm = true;
                }
                let (per_run, runs) = timed(minimum);
                writeln!(out, "{per_run:e} {runs}").and_then(|_| out.flush()).unwrap_or_else(|_| fail("stdout"));
            }
        }
        other => fail(&format!("unknown command {other:?}")),
    }
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments.len() < 3 {
        fail("usage: serde-anchor check|bench|serve CORPUS FILE [ARGUMENTS]");
    }
    let (command, corpus, path, rest) = (&arguments[0], &arguments[1], &arguments[2], &arguments[3..]);
    let bytes = std::fs::read(path).unwrap_or_else(|error| fail(&format!("{path}: {error}")));
    match corpus.as_str() {
        "floats" => run::<GeoCollection>(command, &bytes, rest),
        "integers" => run::<Ledger>(command, &bytes, rest),
        "dictionaries" => run::<TicketCatalogue>(command, &bytes, rest),
        "strings" => run::<TextCorpus>(command, &bytes, rest),
        "citm" => run::<CitmCatalog>(command, &bytes, rest),
        other => fail(&format!("unknown corpus {other:?}")),
    }
}
