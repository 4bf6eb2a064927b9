// The settings page's picture upload: a file over the server's limit is refused here at
// once (the server refuses it too, accounts/pictures.py), so a phone does not send 20 MB
// only to hear it is too large. Unused for the "remove" button.
const form = document.getElementById("picture-form");
const input = form && form.querySelector("input[type=file]");
const tooBig = document.getElementById("picture-too-big");
if (form && input && tooBig) {
  const limit = Number(input.dataset.maxBytes || 0);
  const check = () => {
    const file = input.files && input.files[0];
    const over = !!(file && limit && file.size > limit);
    tooBig.hidden = !over;
    return !over;
  };
  input.addEventListener("change", check);
  form.addEventListener("submit", (event) => {
    if (event.submitter && event.submitter.name === "remove") return;
    if (!check()) event.preventDefault();
  });
}
