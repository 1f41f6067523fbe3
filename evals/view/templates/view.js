// Keys on pages that declare them: data-key on links and buttons. Typing in a field is
// never taken for a key; Escape leaves the field.
document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("input, textarea, select");
  if (typing) {
    // Enter in the note keeps the note and leaves the field: the verdict key then saves it.
    if (event.key === "Escape" || (event.key === "Enter" && event.target.matches("[data-note]"))) {
      event.preventDefault();
      event.target.blur();
    }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "/") {
    const note = document.querySelector("[data-note]");
    if (note) { event.preventDefault(); note.focus(); }
    return;
  }
  const target = document.querySelector(`[data-key~="${CSS.escape(event.key)}"]`);
  if (!target) return;
  event.preventDefault();
  target.click();
});
