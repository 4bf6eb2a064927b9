"""Static files as the browser gets them: hashed names, Brotli and gzip copies, and the
table's ES modules importing each other by their hashed names.

`manage.py collectstatic` (run by `make run` and in production) writes every file under
STATIC_ROOT with a content hash in its name plus `.br`/`.gz` copies; WhiteNoise (the
middleware in settings) serves them with far-future cache headers, since a changed file
gets a new name. Without a collected manifest (the test servers, a fresh checkout) the
names stay plain and WhiteNoise serves the source files through the finders.
"""
from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed manifest storage that also rewrites the relative
    `import … from "./x.js"` of ES modules to the hashed names (one cache entry per
    version of each module), and falls back to the plain name when nothing is collected."""

    support_js_module_import_aggregation = True
    # a file found by the finders but absent from an older manifest gets its plain name
    manifest_strict = False

    def stored_name(self, name):
        """The hashed name of `name` (a path under STATIC_URL, str) from the manifest;
        `name` itself when there is no manifest or the file was never collected.
        Returns str."""
        if not self.hashed_files:
            return name
        try:
            return super().stored_name(name)
        except ValueError:
            return name
