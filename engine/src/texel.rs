//! The pure parts of Texel-style tuning (`engine/examples/tune.rs`, docs/engine.md "Texel
//! tuning"): a position's evaluation is mapped to an expected score by a logistic curve, whose
//! scale is fitted to the games' results; the parameters are then changed one at a time while
//! the mean squared error between expected score and result falls.

/// One training position: its evaluation from White's point of view, in centipawns, and the
/// result of its game for White (1, ½ or 0).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    pub eval: f64,
    pub result: f64,
}

/// The expected score for White at `eval` centipawns: `1 / (1 + 10^(-eval / k))`. At `eval = k`
/// White is expected to score 10/11.
pub fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-eval / k))
}

/// The mean squared error of the expected scores against the results (0 for no samples).
pub fn mse(samples: &[Sample], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.iter().map(|s| (s.result - sigmoid(s.eval, k)).powi(2)).sum();
    sum / samples.len() as f64
}

/// The scale `k` in `[lo, hi]` that minimises [`mse`], by golden-section search: the error is
/// unimodal in `k` for samples whose results follow their evaluations' sign on the whole.
/// Precise to about a thousandth of the range.
pub fn fit_k(samples: &[Sample], lo: f64, hi: f64) -> f64 {
    assert!(0.0 < lo && lo < hi, "a range of positive scales, low first");
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (mse(samples, c), mse(samples, d));
    while b - a > (hi - lo) * 1e-3 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = mse(samples, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = mse(samples, d);
        }
    }
    (a + b) / 2.0
}

/// One parameter of a descent: its current value, the step it moves by and the bounds it stays
/// within.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Knob {
    pub value: i32,
    pub step: i32,
    pub min: i32,
    pub max: i32,
}

/// Coordinate descent: each knob in turn is moved a step up, or else a step down, and keeps
/// the move when `cost` falls; passes repeat until one changes nothing (or `max_passes`).
/// Returns the final cost and the passes made. Deterministic: the same knobs and cost give
/// the same result.
pub fn descend(knobs: &mut [Knob], max_passes: usize, mut cost: impl FnMut(&[Knob]) -> f64) -> (f64, usize) {
    let mut best = cost(knobs);
    for pass in 1..=max_passes {
        let mut improved = false;
        for i in 0..knobs.len() {
            let knob = knobs[i];
            for delta in [knob.step, -knob.step] {
                let value = knob.value + delta;
                if value < knob.min || value > knob.max {
                    continue;
                }
                knobs[i].value = value;
                let c = cost(knobs);
                if c < best {
                    best = c;
                    improved = true;
                    break;
                }
                knobs[i].value = knob.value;
            }
        }
        if !improved {
            return (best, pass);
        }
    }
    (best, max_passes)
}
