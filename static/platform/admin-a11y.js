// Django's two-box selector (filter_horizontal) names its search icons with aria-label on a bare <span>, a
// name that ARIA does not allow there (and axe-core counts as a serious fault). The icon is given the role
// of an image as each selector is drawn, so its name is read as the label of the search box beside it.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.SelectFilter || SelectFilter.namedIcons) return;
  const init = SelectFilter.init;
  SelectFilter.namedIcons = true;
  SelectFilter.init = function () {
    const drawn = init.apply(this, arguments);
    document.querySelectorAll(".search-label-icon[aria-label]:not([role])").forEach(function (icon) {
      icon.setAttribute("role", "img");
    });
    return drawn;
  };
});
