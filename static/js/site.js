// Page behaviour kept out of the markup, so the Content-Security-Policy forbids every inline
// script. Listeners sit on the document, so fragments that htmx swaps in later behave the same.
"use strict";

// The language switcher changes language as soon as one is picked.
document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-submit-on-change]");
  if (select && select.form) {
    select.form.requestSubmit();
  }
});

// A read-only link to share is selected whole when it gets focus.
document.addEventListener("focusin", (event) => {
  if (event.target.matches("input[data-select-on-focus]")) {
    event.target.select();
  }
});

// Forms whose buttons send over the websocket never submit the page.
document.addEventListener("submit", (event) => {
  if (event.target.matches("form[data-no-submit]")) {
    event.preventDefault();
  }
});

// The room form: a field that belongs to one game only (the players of the classic game, the
// palaristi targets) is hidden and left out of the form while the other game is chosen.
const syncVariantFields = (form) => {
  const chosen = form.querySelector("input[data-room-variant]:checked");
  if (!chosen) {
    return;
  }
  form.querySelectorAll("[data-variant-only]").forEach((field) => {
    const off = field.dataset.variantOnly !== chosen.value;
    field.disabled = off;
    const wrapper = field.closest("div");
    if (wrapper) {
      wrapper.hidden = off;
    }
  });
};

document.addEventListener("change", (event) => {
  if (event.target.matches("input[data-room-variant]") && event.target.form) {
    syncVariantFields(event.target.form);
  }
});

document.querySelectorAll("form").forEach((form) => {
  if (form.querySelector("input[data-room-variant]")) {
    syncVariantFields(form);
  }
});
