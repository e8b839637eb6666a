from django.urls import path

from . import views

urlpatterns = [
    path("", views.dealer_home, name="dealer-home"),
    path("tables/<int:pk>/", views.dealer_table, name="dealer-table"),
    path("tables/<int:pk>/<slug:step>/", views.dealer_step, name="dealer-step"),
]
