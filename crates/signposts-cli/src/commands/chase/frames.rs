//! Animated GIF frames of a chase: the map once, then only the cells that changed.
//!
//! Frames are drawn in a fixed palette (no colour quantisation) with the `gif` crate. After
//! the first, each frame holds only the bounding box of the pixels that changed, the unchanged
//! ones transparent, so a frame of 2,000 moving enemies on a 512×512 map takes tens of
//! kilobytes rather than the whole image.

use anyhow::{Result, bail};
use signposts::grid::{Cell, Grid};

/// What a cell shows, by priority (a later kind covers an earlier one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Paint {
    /// Open ground.
    Floor = 0,
    /// A blocked cell.
    Wall = 1,
    /// Open ground whose way to the player the door's closing just made longer.
    Longer = 2,
    /// Open ground whose way to the player the door's opening just made shorter.
    Shorter = 3,
    /// The door, open, and its ring.
    DoorOpen = 4,
    /// The door, closed, and its ring.
    DoorClosed = 5,
    /// At least one enemy.
    Enemy = 6,
    /// The player.
    Player = 7,
    /// Two enemies or more in one cell (drawn so only with `--avoid` and a capacity over 1;
    /// under the player, though its palette index comes after the transparent one).
    Packed = 9,
}

/// Palette index of pixels that did not change since the previous frame.
const UNCHANGED: u8 = 8;

/// The palette, indexed by [`Paint`] (then the transparent index, and padding to 16 colours).
const PALETTE: [[u8; 3]; 16] = [
    [245, 245, 240], // floor
    [40, 44, 52],    // wall
    [250, 212, 170], // longer: a pale tint of the closed door's orange
    [190, 232, 196], // shorter: a pale tint of the open door's green
    [40, 180, 70],   // door open
    [250, 110, 0],   // door closed
    [220, 40, 40],   // enemy
    [30, 90, 230],   // player
    [255, 0, 255],   // unchanged (transparent)
    [0, 0, 0],       // packed: a darker red in a crowd's animation (PACKED)
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
];

/// [`Paint::Packed`]'s colour, in the palette of a crowd's animation only (the others keep
/// the palette's bytes as they were).
const PACKED: [u8; 3] = [130, 10, 30];

/// An animated GIF being drawn in memory.
pub struct Animation {
    encoder: gif::Encoder<Vec<u8>>,
    width: u32,
    scale: u32,
    /// The cells' paint of the last frame written (row-major, one per cell).
    last: Vec<Paint>,
    /// Scratch: this frame's cells.
    next: Vec<Paint>,
    frames: usize,
    delay: u16,
    /// Enemies drawn as dots: the last pixel row and column of their cells left as floor.
    dots: bool,
}

impl Animation {
    /// An animation of `grid`, `scale` pixels per cell, each frame shown `delay` hundredths of
    /// a second. For a `crowd` (`--avoid`), enemies are drawn as dots at 4 pixels a cell or
    /// more (the last pixel row and column of their cells left as floor), so that enemies
    /// side by side show apart, and [`Paint::Packed`] has its colour.
    ///
    /// # Errors
    /// When the image would be wider or taller than a GIF allows (65,535 pixels).
    pub fn new(grid: &Grid, scale: u32, delay: u16, crowd: bool) -> Result<Animation> {
        let (Some(w), Some(h)) = (grid.width().checked_mul(scale), grid.height().checked_mul(scale)) else {
            bail!("{}×{} cells at {scale} pixels each is too large for a GIF", grid.width(), grid.height());
        };
        let (Ok(w), Ok(h)) = (u16::try_from(w), u16::try_from(h)) else {
            bail!("a GIF is at most 65,535 pixels wide and high; {w}×{h} asked (lower the scale)");
        };
        let mut colours = PALETTE;
        if crowd {
            colours[Paint::Packed as usize] = PACKED;
        }
        let palette: Vec<u8> = colours.iter().flatten().copied().collect();
        let mut encoder = gif::Encoder::new(Vec::new(), w, h, &palette)?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        let cells = grid.width() as usize * grid.height() as usize;
        Ok(Animation {
            encoder,
            width: grid.width(),
            scale,
            last: Vec::new(),
            next: vec![Paint::Floor; cells],
            frames: 0,
            delay,
            dots: crowd && scale >= 4,
        })
    }

    /// What the frame being drawn has at `cell` (floor outside the map).
    pub fn painted(&self, cell: Cell) -> Paint {
        let i = cell.y as usize * self.width as usize + cell.x as usize;
        self.next.get(i).filter(|_| cell.x < self.width).copied().unwrap_or(Paint::Floor)
    }

    /// Starts a frame: every cell painted from `grid` (floor or wall); paint on top with
    /// [`Animation::paint`], then [`Animation::finish_frame`].
    pub fn begin_frame(&mut self, grid: &Grid) {
        for (i, paint) in self.next.iter_mut().enumerate() {
            let cell = Cell::new((i % self.width as usize) as u32, (i / self.width as usize) as u32);
            *paint = if grid.is_passable(cell) { Paint::Floor } else { Paint::Wall };
        }
    }

    /// Paints one cell of the frame being drawn (cells outside the map are ignored).
    pub fn paint(&mut self, cell: Cell, paint: Paint) {
        let i = cell.y as usize * self.width as usize + cell.x as usize;
        if let Some(p) = self.next.get_mut(i).filter(|_| cell.x < self.width) {
            *p = paint;
        }
    }

    /// Writes the frame: whole the first time, then the box of changed cells with the
    /// unchanged pixels transparent.
    ///
    /// # Errors
    /// When encoding fails.
    pub fn finish_frame(&mut self) -> Result<()> {
        let w = self.width as usize;
        let h = self.next.len() / w.max(1);
        // The box of changed cells (all of them in the first frame).
        let (mut x0, mut y0, mut x1, mut y1) = (0, 0, w, h);
        if self.last.len() == self.next.len() {
            (x0, y0, x1, y1) = (w, h, 0, 0);
            for (i, (a, b)) in self.last.iter().zip(&self.next).enumerate() {
                if a != b {
                    let (x, y) = (i % w, i / w);
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
                }
            }
            if x0 >= x1 {
                // Nothing moved: one transparent pixel keeps the frame's time.
                (x0, y0, x1, y1) = (0, 0, 1, 1);
            }
        }
        let s = self.scale as usize;
        let (fw, fh) = ((x1 - x0) * s, (y1 - y0) * s);
        let mut buffer = Vec::with_capacity(fw * fh);
        for py in 0..fh {
            let row = (y0 + py / s) * w;
            for px in 0..fw {
                let i = row + x0 + px / s;
                let paint = self.next[i];
                let same = self.last.get(i) == Some(&paint);
                let enemy = matches!(paint, Paint::Enemy | Paint::Packed);
                let gap = self.dots && enemy && (px % s == s - 1 || py % s == s - 1);
                let index = if same {
                    UNCHANGED
                } else if gap {
                    Paint::Floor as u8
                } else {
                    paint as u8
                };
                buffer.push(index);
            }
        }
        let frame = gif::Frame {
            delay: self.delay,
            dispose: gif::DisposalMethod::Keep,
            transparent: Some(UNCHANGED),
            left: (x0 * s) as u16,
            top: (y0 * s) as u16,
            width: fw as u16,
            height: fh as u16,
            buffer: buffer.into(),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame)?;
        self.last.clone_from(&self.next);
        self.frames += 1;
        Ok(())
    }

    /// Frames written so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The finished GIF's bytes.
    ///
    /// # Errors
    /// When encoding fails.
    pub fn into_bytes(self) -> Result<Vec<u8>> {
        Ok(self.encoder.into_inner()?)
    }
}
