//! Where things go: the caption strip on top, the board, and a border round it that holds the
//! coordinates, or is a thin rim when a picture goes without them. Either way a picture is
//! exactly as wide as asked; the squares take what the border leaves.

use rules::Square;

/// Smallest and largest picture widths, in pixels.
pub const MIN_SIZE: u32 = 160;
pub const MAX_SIZE: u32 = 2048;

/// The geometry of one board picture (or one panel of a diagram).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Layout {
    pub files: u8,
    pub ranks: u8,
    /// Side of a square, in pixels.
    pub square: u32,
    /// Left edge and top edge of the board's a-file / top rank.
    pub left: u32,
    pub top: u32,
    /// Width of the border around the board: room for the coordinates, or a thin rim.
    pub border: u32,
    /// File letters and rank numbers are drawn in the border.
    pub coordinates: bool,
    /// Height of the caption strip above the board (0 for none).
    pub caption: u32,
    pub width: u32,
    pub height: u32,
    /// Black at the bottom.
    pub flipped: bool,
}

/// The least border, as a share of the width: room for a coordinate a little under half its
/// height, or else a rim that keeps the squares off the picture's edge.
const COORDINATES_BORDER: f32 = 0.045;
const RIM: f32 = 0.015;

impl Layout {
    /// A board `width` pixels wide (clamped to `MIN_SIZE..=MAX_SIZE`) with its coordinates,
    /// squares as large as the border leaves room for, the spare pixels shared by the two
    /// sides.
    pub fn new(width: u32, files: u8, ranks: u8, flipped: bool, with_caption: bool) -> Layout {
        Layout::with_border(width, files, ranks, flipped, with_caption, true)
    }

    /// The same picture without coordinates: the border narrows to a rim and the squares grow
    /// into the room it frees (at 640 px and 8x8, 77 px squares in place of 72), the width
    /// staying as it was.
    pub(crate) fn without_coordinates(self) -> Layout {
        debug_assert_eq!((self.left, self.top_margin()), (self.border, self.top), "not a shifted layout");
        Layout::with_border(self.width, self.files, self.ranks, self.flipped, self.caption > 0, false)
    }

    fn with_border(width: u32, files: u8, ranks: u8, flipped: bool, with_caption: bool, coordinates: bool) -> Layout {
        let width = width.clamp(MIN_SIZE, MAX_SIZE);
        let share = if coordinates { COORDINATES_BORDER } else { RIM };
        let min_border = (width as f32 * share).round() as u32;
        let square = (width - 2 * min_border) / u32::from(files);
        let border = (width - square * u32::from(files)) / 2;
        let caption = if with_caption { (width as f32 * 0.062).round() as u32 } else { 0 };
        let top = caption.max(border / 2);
        Layout {
            files,
            ranks,
            square,
            left: border,
            top,
            border,
            coordinates,
            caption,
            width,
            height: top + square * u32::from(ranks) + border,
            flipped,
        }
    }

    /// The top-left pixel of a square.
    pub fn square_origin(&self, sq: Square) -> (u32, u32) {
        let (col, row) = if self.flipped {
            (self.files - 1 - sq.file(), sq.rank())
        } else {
            (sq.file(), self.ranks - 1 - sq.rank())
        };
        (self.left + u32::from(col) * self.square, self.top + u32::from(row) * self.square)
    }

    /// The centre pixel of a square.
    pub fn square_centre(&self, sq: Square) -> (u32, u32) {
        let (x, y) = self.square_origin(sq);
        (x + self.square / 2, y + self.square / 2)
    }

    /// The squares of the board, a1 first.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ranks).flat_map(move |r| (0..self.files).filter_map(move |f| Square::new(f, r)))
    }

    /// Pixels above the board that belong to this layout (caption, or half a border).
    pub(crate) fn top_margin(&self) -> u32 {
        self.height - self.square * u32::from(self.ranks) - self.border
    }

    /// Moves the whole layout `dx` pixels right and `dy` down (a panel of a diagram).
    pub(crate) fn shifted(mut self, dx: u32, dy: u32) -> Layout {
        self.left += dx;
        self.top += dy;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_fill_the_width_exactly() {
        for width in [160, 400, 512, 640, 1000, 2048] {
            for n in [8, 10] {
                let l = Layout::new(width, n, n, false, true);
                assert_eq!(l.width, width);
                assert_eq!(2 * l.border + l.square * u32::from(n), width);
                assert!(l.border * 100 >= width * 4, "room for coordinates at {width}");
            }
        }
    }

    #[test]
    fn boards_without_coordinates_keep_the_width_and_grow_their_squares() {
        for width in [160, 400, 512, 640, 1000, 2048] {
            for n in [8, 10] {
                let with = Layout::new(width, n, n, false, true);
                let without = with.without_coordinates();
                assert!(with.coordinates && !without.coordinates);
                assert_eq!(without.width, width);
                assert_eq!(2 * without.border + without.square * u32::from(n), width);
                assert!(without.border < with.border && without.border >= 2, "a rim at {width}: {}", without.border);
                assert!(without.square > with.square, "{n}x{n} at {width}");
                assert_eq!(without.caption, with.caption);
                assert!(without.height >= width, "room for the caption");
            }
        }
    }

    #[test]
    fn flipping_turns_the_board_round() {
        let l = Layout::new(640, 8, 8, false, true);
        let f = Layout::new(640, 8, 8, true, true);
        let a1: Square = "a1".parse().unwrap();
        let h8: Square = "h8".parse().unwrap();
        assert_eq!(l.square_origin(a1), f.square_origin(h8));
        let a8: Square = "a8".parse().unwrap();
        assert_eq!(l.square_origin(a8), (l.left, l.top));
    }
}
