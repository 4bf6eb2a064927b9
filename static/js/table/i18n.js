// Translation helpers: Django's JavaScriptCatalog (/jsi18n/) defines gettext,
// ngettext and interpolate on window. The standalone demo has no catalog, so
// fall back to identity functions with the same shapes.
const g = typeof window !== "undefined" ? window : globalThis;

/** Translate a message id (string -> string). */
export function _(text) {
  return typeof g.gettext === "function" ? g.gettext(text) : text;
}

/** Translate a message id in a context (context, text) -> string: a short word such as
 * "left" means different things in different places, and translators need to know which. */
export function pgettext(context, text) {
  return typeof g.pgettext === "function" ? g.pgettext(context, text) : text;
}

/** Plural form: (singular, plural, count) -> string. */
export function ngettext(singular, plural, count) {
  if (typeof g.ngettext === "function") return g.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** Fill %(name)s placeholders from an object (named=true) or %s from an array. */
export function fmt(text, values) {
  if (typeof g.interpolate === "function") {
    return g.interpolate(text, values, !Array.isArray(values));
  }
  if (Array.isArray(values)) {
    let i = 0;
    return text.replace(/%s/g, () => String(values[i++]));
  }
  return text.replace(/%\((\w+)\)s/g, (_m, k) => String(values[k]));
}
