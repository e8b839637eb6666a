from django.urls import path

from . import views

urlpatterns = [
    path("", views.table_list, name="floor-tables"),
    path("tables/new/", views.table_create, name="floor-table-create"),
    path("tables/<int:pk>/", views.table_detail, name="floor-table"),
    path("tables/<int:pk>/<slug:action>/", views.table_action, name="floor-table-action"),
    path("hands/<int:pk>/", views.hand_detail, name="floor-hand"),
]
