// Copy buttons beside read-only boxes (an invitation's link and its text for Discord). Without this script
// the buttons stay hidden and the boxes are there to select and copy by hand; with it, a box is selected
// whole as it takes the focus, and its button copies it and says so beside it.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll(".copy-source").forEach(function (box) {
    box.addEventListener("focus", function () { box.select(); });
  });
  document.querySelectorAll("button.copy-button[data-copy]").forEach(function (button) {
    const box = document.getElementById(button.dataset.copy);
    const said = button.parentElement.querySelector(".copy-said");
    if (!box) return;
    button.hidden = false;
    function say(words) { if (said) said.textContent = words; }
    function byHand() {
      // Where the clipboard is not offered (a page over plain http): the old way, else the box selected.
      box.focus();
      box.select();
      let copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      say(copied ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.");
    }
    button.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(box.value).then(function () { say("Copied."); }, byHand);
      } else {
        byHand();
      }
    });
  });
});
