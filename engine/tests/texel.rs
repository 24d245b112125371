//! The pure parts of the tuning run (`--example tune`): the scale fit, the descent and the
//! parameters' text format.

use engine::texel::{descend, fit_k, mse, sigmoid, Knob, Sample};
use engine::{Params, ParamsError};
use rules::{Role, Variant};

/// Positions at evaluations -600..600 whose results are the expected scores under `k`
/// exactly (fractions stand for many games' average).
fn synthetic(k: f64) -> Vec<Sample> {
    (-60..=60).map(|i| f64::from(i) * 10.0).map(|eval| Sample { eval, result: sigmoid(eval, k) }).collect()
}

#[test]
fn the_sigmoid_is_a_half_at_zero_and_ten_elevenths_at_k() {
    assert_eq!(sigmoid(0.0, 400.0), 0.5);
    assert!((sigmoid(400.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
    assert!((sigmoid(-400.0, 400.0) - 1.0 / 11.0).abs() < 1e-12);
}

#[test]
fn the_scale_fit_recovers_the_scale_the_results_follow() {
    for k in [150.0, 400.0, 900.0] {
        let fitted = fit_k(&synthetic(k), 20.0, 2000.0);
        assert!((fitted - k).abs() < 3.0, "fitted {fitted} for {k}");
        assert!(mse(&synthetic(k), fitted) < 1e-5);
    }
}

#[test]
fn the_scale_fit_of_decided_results_follows_their_spread() {
    // Won above +100, lost below -100, even between: a steep curve fits better than a flat one.
    let samples: Vec<Sample> = (-30..=30)
        .map(|i| f64::from(i) * 20.0)
        .map(|eval| Sample {
            eval,
            result: if eval > 100.0 {
                1.0
            } else if eval < -100.0 {
                0.0
            } else {
                0.5
            },
        })
        .collect();
    let k = fit_k(&samples, 20.0, 2000.0);
    assert!(mse(&samples, k) < mse(&samples, 400.0), "k {k}");
    assert!(k < 200.0, "k {k}");
}

#[test]
fn the_descent_finds_the_minimum_of_a_separable_bowl() {
    let mut knobs = [Knob { value: 0, step: 10, min: -1000, max: 1000 }, Knob { value: 50, step: 1, min: 0, max: 100 }];
    let cost = |k: &[Knob]| f64::from((k[0].value - 320).pow(2) + (k[1].value - 7).pow(2));
    let (best, passes) = descend(&mut knobs, 1000, cost);
    assert_eq!((knobs[0].value, knobs[1].value), (320, 7));
    assert_eq!(best, 0.0);
    assert!(passes > 1);
}

#[test]
fn the_descent_keeps_to_the_bounds() {
    let mut knobs = [Knob { value: 5, step: 1, min: 0, max: 10 }];
    descend(&mut knobs, 1000, |k| -f64::from(k[0].value));
    assert_eq!(knobs[0].value, 10);
}

#[test]
fn a_params_text_sets_the_terms_it_names() {
    let base = Params::for_variant(Variant::Golem);
    let text = "# a comment\nG=700 H=400  # the Golem's\nmob.G=5\tctr.N=1 P=100";
    let params = Params::parse(Variant::Golem, base.clone(), text).expect("a valid text");
    assert_eq!(params.value(Role::Golem), 700);
    assert_eq!(params.value(Role::HalfGolem), 400);
    assert_eq!(params.mobility[Role::Golem.index()], 5);
    assert_eq!(params.centre[Role::Knight.index()], 1);
    assert_eq!(params.value(Role::Queen), base.value(Role::Queen), "unnamed terms stay");
}

#[test]
fn a_params_text_round_trips() {
    for variant in Variant::ALL {
        let mut params = Params::for_variant(variant);
        params.values[Role::Knight.index()] += 7;
        params.centre[Role::Rook.index()] = 3;
        let text = params.to_text(variant);
        assert_eq!(Params::parse(variant, Params::for_variant(variant), &text), Ok(params), "{variant:?}: {text}");
    }
}

#[test]
fn a_params_text_names_what_is_wrong() {
    let parse = |text: &str| Params::parse(Variant::Golem, Params::for_variant(Variant::Golem), text);
    assert_eq!(parse("G700"), Err(ParamsError::NotKeyValue("G700".into())));
    assert_eq!(parse("W=850"), Err(ParamsError::UnknownPiece { key: "W".into(), variant: Variant::Golem }));
    assert_eq!(parse("g=850"), Err(ParamsError::UnknownPiece { key: "g".into(), variant: Variant::Golem }));
    assert_eq!(parse("pos.N=3"), Err(ParamsError::UnknownTerm("pos.N".into())));
    assert_eq!(parse("K=0"), Err(ParamsError::NoSuchTerm("K".into())));
    assert_eq!(parse("mob.P=2"), Err(ParamsError::NoSuchTerm("mob.P".into())));
    assert_eq!(parse("N=3.5"), Err(ParamsError::BadValue { key: "N".into(), value: "3.5".into() }));
    assert_eq!(parse("N=99999"), Err(ParamsError::BadValue { key: "N".into(), value: "99999".into() }));
    assert_eq!(parse("mob.N=x").unwrap_err().to_string(), "`mob.N=x`: the value is not whole centipawns within ±10000");
}
