/**
 * Small, real media for the demo server, made in code so the package ships no binary files: a
 * PNG image and a WAV tone.
 * @module
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Encodes an RGB image as PNG.
 *
 * @example
 * ```ts
 * const red = png(2, 2, () => [255, 0, 0]);
 * ```
 */
export function png(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly [number, number, number],
): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // truecolour RGB
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      rows.set([r, g, b], row + 1 + x * 3);
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * Encodes a sine tone as 8-bit mono WAV.
 *
 * @example
 * ```ts
 * const beep = wavTone(440, 250);
 * ```
 */
export function wavTone(frequency: number, durationMs: number, sampleRate = 8000): Uint8Array {
  const samples = Math.round((sampleRate * durationMs) / 1000);
  const wav = Buffer.alloc(44 + samples);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate, 28); // bytes per second
  wav.writeUInt16LE(1, 32); // block align
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++) {
    // Fade in and out so the tone does not click.
    const envelope = Math.min(1, i / 200, (samples - i) / 200);
    wav[44 + i] = Math.round(128 + 100 * envelope * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
  }
  return wav;
}

/** The demo logo: a 32×32 blue-to-violet gradient with a light diagonal band. */
export const LOGO_PNG: Uint8Array = png(32, 32, (x, y) => {
  const band = Math.abs(x - y) < 4;
  return band ? [240, 240, 255] : [40 + x * 4, 90, 200 + Math.min(55, y * 2)];
});

/** A quarter-second 440 Hz tone. */
export const TONE_WAV: Uint8Array = wavTone(440, 250);
