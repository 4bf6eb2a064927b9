"""Static files as the browser gets them: hashed names, Brotli and gzip copies, and the
table's ES modules importing each other by their hashed names.

`manage.py collectstatic` (run by `make run` and in production) writes every file under
STATIC_ROOT with a content hash in its name plus `.br`/`.gz` copies; WhiteNoise (the
middleware in settings) serves them with far-future cache headers, since a changed file
gets a new name. Without a collected manifest (the test servers, a fresh checkout) the
names stay plain and WhiteNoise serves the source files through the finders.

It also writes each bundle of BUNDLES (okeysite/static_bundle.py: a page's ES modules as
one script) before hashing, so the bundle gets its hash and its compressed copies like any
file; a page names its bundle when the manifest has it (`collected`), else its modules.
"""
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

from okeysite.static_bundle import bundle

# bundle name -> the entry modules it runs, in order (templates/games/table.html)
TABLE_BUNDLE = "js/table.bundle.js"
BUNDLES = {TABLE_BUNDLE: ("js/table/main.js", "js/table-extras.js")}


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed manifest storage that also rewrites the relative
    `import … from "./x.js"` of ES modules to the hashed names (one cache entry per
    version of each module), and falls back to the plain name when nothing is collected."""

    support_js_module_import_aggregation = True
    # a file found by the finders but absent from an older manifest gets its plain name
    manifest_strict = False

    def post_process(self, paths, dry_run=False, **options):
        """Write BUNDLES from the collected modules, then hash and compress everything
        (WhiteNoise's post_process), the bundles included. `paths`: {name: (storage,
        path)} as collectstatic gives it. Yields (name, hashed name, processed) as Django's.
        Raises okeysite.static_bundle.BundleError for a module the bundler cannot read."""
        if not dry_run:
            paths = dict(paths)

            def read(name):
                storage, path = paths[name]
                with storage.open(path) as f:
                    return f.read().decode("utf-8")

            for name, entries in BUNDLES.items():
                if self.exists(name):
                    self.delete(name)
                self._save(name, ContentFile(bundle(entries, read).encode("utf-8")))
                paths[name] = (self, name)
        yield from super().post_process(paths, dry_run=dry_run, **options)

    def collected(self, name):
        """Whether the manifest names `name` (a path under STATIC_URL, str): it was
        collected and is served by its hashed name. Returns bool."""
        return name in self.hashed_files

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
