import { describe, expect, it } from "vitest";
import { parseImageData } from "./image-data.ts";

// A 1×1 PNG.
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PNG = `data:image/png;base64,${PNG_BASE64}`;

describe("parseImageData", () => {
  it("reads the format off the bytes: a PNG that discord.js sends from a Buffer as image/jpg is a PNG", () => {
    expect(parseImageData(`data:image/jpg;base64,${PNG_BASE64}`)).toMatchObject({ format: "png", contentType: "image/png", animated: false });
    expect(parseImageData(PNG)?.bytes.equals(Buffer.from(PNG_BASE64, "base64"))).toBe(true);
  });

  it("takes no bytes that are no image, whatever the URI declares, and nothing but an image data URI", () => {
    const text = Buffer.from("not an image").toString("base64");
    expect(parseImageData(`data:image/png;base64,${text}`)).toBeNull();
    expect(parseImageData(`data:image/jpeg;base64,${text}`)).toBeNull();
    expect(parseImageData(`data:image/png;base64,`)).toBeNull();
    expect(parseImageData(`data:text/plain;base64,${PNG_BASE64}`)).toBeNull();
  });
});
