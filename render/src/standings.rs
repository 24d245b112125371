//! A tournament's standings as a picture: a title, a line about the event, and a table, set
//! in the project's lettering on the board frame's colours. The caller gives plain text cells,
//! so this crate knows nothing of tournaments.

use crate::canvas::Canvas;
use crate::palette::{Ink, Theme};
use crate::renderer::Renderer;

/// What a standings picture shows: every cell already written out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingsTable {
    pub title: String,
    /// A line under the title (the round, the format).
    pub subtitle: String,
    /// Column headings; the second column (the players' names) is set left, the others right.
    pub columns: Vec<String>,
    /// One row per player, in ranking order, as many cells as columns.
    pub rows: Vec<Vec<String>>,
}

/// Height of a capital in the table, in pixels.
const TEXT: u32 = 16;
const TITLE: u32 = 26;
const SUBTITLE: u32 = 13;
/// The widest the names column may be before names are cut with an ellipsis.
const NAME_WIDTH: u32 = 360;
/// The widest any other column may be.
const CELL_WIDTH: u32 = 200;
/// Rows drawn at most; a longer table says how many more there are.
const MAX_ROWS: usize = 64;

impl Renderer {
    /// The standings as an indexed-colour PNG.
    pub fn standings_png(&self, table: &StandingsTable, theme: Theme) -> Vec<u8> {
        let text = self.glyphs(TEXT);
        let title_font = self.glyphs(TITLE);
        let small = self.glyphs(SUBTITLE);
        let margin = TEXT * 2;
        let gap = TEXT * 3 / 2;
        let row_h = TEXT * 2;
        let shown = &table.rows[..table.rows.len().min(MAX_ROWS)];
        let more = table.rows.len() - shown.len();

        let cell = |row: &[String], i: usize| row.get(i).cloned().unwrap_or_default();
        let widths: Vec<u32> = (0..table.columns.len())
            .map(|i| {
                let cells = shown.iter().map(|r| text.width(&cell(r, i)));
                let widest = cells.chain([text.width(&table.columns[i])]).max().unwrap_or(0);
                widest.min(if i == 1 { NAME_WIDTH } else { CELL_WIDTH })
            })
            .collect();
        let table_w: u32 = widths.iter().sum::<u32>() + gap * widths.len().saturating_sub(1) as u32;
        let width = (table_w + 2 * margin).clamp(320, 1600);
        let inner = width - 2 * margin;
        let title = title_font.fit(&table.title, inner);
        let subtitle = small.fit(&table.subtitle, inner);
        let rows_shown = shown.len() as u32 + u32::from(more > 0);
        let header_top = margin + TITLE + SUBTITLE * 2 + TEXT;
        let height = header_top + row_h * (rows_shown + 1) + margin / 2;

        let mut canvas = Canvas::new(width, height, Ink::Frame, self.palette(theme));
        title_font.draw(&mut canvas, &title, margin as i32, (margin + TITLE) as i32, Ink::FrameText);
        small.draw(&mut canvas, &subtitle, margin as i32, (margin + TITLE + SUBTITLE * 2) as i32, Ink::Muted);

        let baseline = |row: u32| (header_top + row_h * row + (row_h + TEXT) / 2) as i32;
        let draw_row = |canvas: &mut Canvas, cells: Vec<String>, row: u32, ink: Ink, name_ink: Ink| {
            let mut x = margin as i32;
            for (i, (c, &w)) in cells.iter().zip(&widths).enumerate() {
                let fitted = text.fit(c, w);
                if i == 1 {
                    text.draw(canvas, &fitted, x, baseline(row), name_ink);
                } else {
                    text.draw(canvas, &fitted, x + w as i32 - text.width(&fitted) as i32, baseline(row), ink);
                }
                x += (w + gap) as i32;
            }
        };
        let header: Vec<String> = table.columns.clone();
        draw_row(&mut canvas, header, 0, Ink::Muted, Ink::Muted);
        let rule_y = header_top + row_h - 2;
        canvas.fill(margin as i32, rule_y as i32, table_w.min(inner), 2, Ink::Muted);
        for (n, row) in shown.iter().enumerate() {
            let cells: Vec<String> = (0..table.columns.len()).map(|i| cell(row, i)).collect();
            // The winner's line in the accent colour.
            let ink = if n == 0 { Ink::Accent } else { Ink::FrameText };
            draw_row(&mut canvas, cells, n as u32 + 1, ink, ink);
        }
        if more > 0 {
            let line = format!("and {more} more");
            text.draw(&mut canvas, &line, margin as i32, baseline(shown.len() as u32 + 1), Ink::Muted);
        }
        canvas.png()
    }
}
