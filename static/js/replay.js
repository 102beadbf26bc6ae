// A round's replay, one step at a time (templates/games/replay.html). Every step is in the page
// and each is a link (?step=N), so the page works without this script; with it, the previous
// and next buttons, the step links and the arrow keys show a step without reloading.
"use strict";

(() => {
  const replay = document.querySelector("[data-replay]");
  if (!replay) {
    return;
  }
  const steps = Array.from(replay.querySelectorAll("[data-replay-step]"));
  const chips = Array.from(replay.querySelectorAll(".replay-chip[data-replay-to]"));
  const previous = replay.querySelector("[data-replay-previous]");
  const next = replay.querySelector("[data-replay-next]");
  const counter = replay.querySelector("[data-replay-counter]");
  // The language switcher comes back to the page it was sent from: the step shown.
  const languageNext = document.querySelector(".language-switcher input[name=next]");
  let current = steps.findIndex((step) => !step.hidden);

  // Point the previous or next button at a step, or disable it past either end.
  function aim(button, index) {
    if (index < 0 || index >= steps.length) {
      button.removeAttribute("href");
      button.removeAttribute("data-replay-to");
      button.setAttribute("aria-disabled", "true");
      return;
    }
    button.href = steps[index].dataset.href;
    button.dataset.replayTo = String(index + 1);
    button.removeAttribute("aria-disabled");
  }

  function show(index) {
    if (index < 0 || index >= steps.length || index === current) {
      return;
    }
    steps[current].hidden = true;
    steps[index].hidden = false;
    current = index;
    chips.forEach((chip, i) => {
      if (i === index) {
        chip.setAttribute("aria-current", "step");
      } else {
        chip.removeAttribute("aria-current");
      }
    });
    aim(previous, index - 1);
    aim(next, index + 1);
    counter.textContent = String(index + 1);
    // The address stays the step's own, to share or to reload.
    history.replaceState(null, "", steps[index].dataset.href);
    if (languageNext) {
      languageNext.value = location.pathname + location.search;
    }
  }

  replay.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-replay-to]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    event.preventDefault();
    show(Number(link.dataset.replayTo) - 1);
  });

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    // The arrow keys keep their meaning in a form field (the language switcher).
    if (event.target.closest("input, select, textarea, [contenteditable]")) {
      return;
    }
    if (event.key === "ArrowLeft") {
      show(current - 1);
      event.preventDefault();
    } else if (event.key === "ArrowRight") {
      show(current + 1);
      event.preventDefault();
    }
  });
})();
