//! What players see of a game: board pictures (as their viewer's settings draw them, from the
//! side to move unless the viewer asks for their own; the last move tinted) and the words
//! around them.

use render::{move_squares, BoardView, Markers};
use rules::{Color, Square};

use super::end::Ended;
use super::personal::Look;
use super::table::Table;
use super::{board_text, Host, Image, Message, ShownBoard, Typed};

impl Host {
    /// The current board of `table` as `look` draws it (from the side it puts at the bottom),
    /// with `markers`; `name` ends the file name (`game-12-ply-7.png`).
    pub(crate) fn board_image(&self, table: &Table, markers: Markers, name: &str, look: &Look) -> Image {
        let position = table.position();
        let last_move = table.game.moves().last().copied();
        let bottom = look.bottom_of(table);
        let flipped = bottom == Color::Black;
        let mut view = BoardView::new(position)
            .flipped(flipped)
            .markers(markers.clone())
            .theme(look.theme)
            .coordinates(look.coordinates)
            .size(self.settings().board_size)
            .players(table.name(Color::White).0, table.name(Color::Black).0);
        view.last_move = last_move;
        let png = self.inner.renderer.board_png(&view);
        let marks = match markers {
            Markers::None => Vec::new(),
            Markers::From(from) => render::legal_markers(position, from).into_iter().map(|(sq, _)| sq).collect(),
            Markers::List(list) => list.into_iter().map(|(sq, _)| sq).collect(),
        };
        let last = table.record.moves.last().map_or_else(String::new, |m| format!(" after {}", m.san));
        let alt = format!(
            "{} board{last}, {} ({}) to move, {bottom} at the bottom. {}",
            table.variant().name(),
            table.name(position.turn()).0,
            position.turn(),
            board_text::pieces(position)
        );
        Image {
            board: Some(ShownBoard {
                variant: table.variant(),
                fen: position.fen(),
                flipped,
                highlight: last_move.map_or_else(Vec::new, |m| move_squares(&m).into_iter().collect()),
                marks,
            }),
            ..Image::png(format!("game-{}-{name}.png", table.id()), png, alt)
        }
    }

    /// The board as it stands, for `/board` and after anything that changes it, as `look`
    /// draws it (with the pieces written out below `text` when it asks), and the link to the
    /// game's page (shown only in the game's channel, where its key may be given).
    pub(crate) fn board_message(&self, table: &Table, text: String, look: &Look) -> Message {
        let image = self.board_image(table, Markers::None, &format!("ply-{}", table.ply()), look);
        let text = match look.described {
            true if text.is_empty() => board_text::pieces(table.position()),
            true => format!("{text}\n{}", board_text::pieces(table.position())),
            false => text,
        };
        Message::text(text).with_image(image).with_link(self.game_link(&table.record.game.web_key))
    }

    /// What everyone sees after a move: the board, the move, check or the end, and a call to
    /// whoever moves next.
    pub(crate) fn move_message(&self, table: &Table, ended: Option<&Ended>, look: &Look) -> Message {
        let mover = !table.to_move();
        let last = table.record.moves.last().map_or("", |m| m.san.as_str());
        let mut text = format!("{} ({mover}) played {} {last}.", table.name(mover), move_number(table.ply()));
        match ended {
            Some(ended) => {
                text.push(' ');
                text.push_str(&ended.announcement());
            }
            None => {
                text.push(' ');
                text.push_str(&to_move_line(table));
            }
        }
        let message = self.board_message(table, text, look);
        match ended {
            Some(_) => message.mentioning(&table.user(Color::White)).mentioning(&table.user(Color::Black)),
            None => message.mentioning(&table.user(table.to_move())),
        }
    }
}

/// `Check. bob (Black) to move.`, with the Ghost King's warning in its variant.
pub(crate) fn to_move_line(table: &Table) -> String {
    to_move_line_in(table.position(), |color| table.name(color).0)
}

/// [`to_move_line`] for `position`, its players named by `name`.
pub(crate) fn to_move_line_in<'a>(position: &rules::Position, name: impl Fn(Color) -> &'a str) -> String {
    let turn = position.turn();
    let warning = match (position.is_check(), position.variant()) {
        (false, _) => "",
        (true, rules::Variant::GhostKing) => "The Ghost King can be taken! ",
        (true, _) => "Check! ",
    };
    format!("{warning}{} ({turn}) to move.", Typed(name(turn)))
}

/// The number written before ply `ply` (1-based): `3.` for White's third move, `3...` for
/// Black's.
pub(crate) fn move_number(ply: u32) -> String {
    let full = ply.div_ceil(2);
    if ply % 2 == 1 {
        format!("{full}.")
    } else {
        format!("{full}...")
    }
}

/// The moves as a score: `1. f3 e5 2. g4 Qh4#`.
pub(crate) fn score(sans: &[String]) -> String {
    let mut out = Vec::new();
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            out.push(format!("{}.", i / 2 + 1));
        }
        out.push(san.clone());
    }
    out.join(" ")
}

/// Squares as text: `e2, e4`.
pub(crate) fn squares(list: impl IntoIterator<Item = Square>) -> String {
    list.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_number_the_moves() {
        let sans: Vec<String> = ["f3", "e5", "g4", "Qh4#"].map(String::from).to_vec();
        assert_eq!(score(&sans), "1. f3 e5 2. g4 Qh4#");
        assert_eq!(score(&sans[..3]), "1. f3 e5 2. g4");
        assert_eq!((move_number(1), move_number(2), move_number(3)), ("1.".into(), "1...".into(), "2.".into()));
    }
}
