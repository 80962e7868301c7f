/** Prettier's defaults, with the wider lines this codebase was written in. */
export default { printWidth: 160 };
