import { describe, expect, it } from "vitest";
import { imageDimensions } from "./image-dimensions.ts";

describe("imageDimensions", () => {
  it("reads a GIF's logical screen size", () => {
    const gif = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.from([0x40, 0x01, 0xf0, 0x00]), Buffer.alloc(8)]);
    expect(imageDimensions(gif)).toEqual({ width: 320, height: 240 });
  });

  it("reads a JPEG's first frame header, past the segments before it", () => {
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
    const huffman = Buffer.from([0xff, 0xc4, 0x00, 0x03, 0x00]);
    const frame = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(imageDimensions(Buffer.concat([Buffer.from([0xff, 0xd8]), app0, huffman, frame]))).toEqual({ width: 640, height: 480 });
  });

  it("reads the three WebP kinds", () => {
    const riff = (chunk: string, body: Buffer) =>
      Buffer.concat([Buffer.from("RIFF\0\0\0\0WEBP", "latin1"), Buffer.from(chunk, "latin1"), Buffer.alloc(4), body]);
    const lossy = Buffer.alloc(14);
    lossy.writeUInt16LE(300, 6);
    lossy.writeUInt16LE(200, 8);
    expect(imageDimensions(riff("VP8 ", lossy))).toEqual({ width: 300, height: 200 });
    const lossless = Buffer.alloc(14);
    lossless.writeUInt32LE(299 | (199 << 14), 1);
    expect(imageDimensions(riff("VP8L", lossless))).toEqual({ width: 300, height: 200 });
    const extended = Buffer.alloc(14);
    extended.writeUIntLE(299, 4, 3);
    extended.writeUIntLE(199, 7, 3);
    expect(imageDimensions(riff("VP8X", extended))).toEqual({ width: 300, height: 200 });
  });

  it("has none for other bytes or a cut header", () => {
    expect(imageDimensions(Buffer.from("hello, world, this is text"))).toBeNull();
    expect(imageDimensions(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toBeNull();
  });
});
