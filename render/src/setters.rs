//! The builder setters that the pictures share ([`crate::BoardView`], [`crate::GameGif`],
//! [`crate::EvalGraph`]), written once: each picture names the ones it has, and they set its
//! field of the same name, with the same meaning everywhere.

/// `picture_setters!('a; theme, size, ...)` inside an `impl<'a>` of a picture with those fields.
macro_rules! picture_setters {
    ($a:lifetime; $($setter:ident),* $(,)?) => {
        $(picture_setters!(@ $a $setter);)*
    };
    (@ $a:lifetime theme) => {
        /// The colour scheme.
        pub fn theme(mut self, theme: $crate::palette::Theme) -> Self {
            self.theme = theme;
            self
        }
    };
    (@ $a:lifetime size) => {
        /// The width in pixels, clamped to `MIN_SIZE..=MAX_SIZE` when drawn.
        pub fn size(mut self, size: u32) -> Self {
            self.size = size;
            self
        }
    };
    (@ $a:lifetime flipped) => {
        /// Black at the bottom.
        pub fn flipped(mut self, flipped: bool) -> Self {
            self.flipped = flipped;
            self
        }
    };
    (@ $a:lifetime coordinates) => {
        /// File letters and rank numbers round the board (the default). Without them the
        /// border narrows to a rim and the squares grow into it; the width stays as asked.
        pub fn coordinates(mut self, coordinates: bool) -> Self {
            self.coordinates = coordinates;
            self
        }
    };
    (@ $a:lifetime players) => {
        /// The names of White and Black for the caption, as the players wrote them.
        pub fn players(mut self, white: &$a str, black: &$a str) -> Self {
            self.players = [white, black];
            self
        }
    };
    (@ $a:lifetime result) => {
        /// How the game ended, shown in the caption between the names.
        pub fn result(mut self, result: &$a str) -> Self {
            self.result = Some(result);
            self
        }
    };
}

pub(crate) use picture_setters;
